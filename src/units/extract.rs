//! One walk over a syntax tree, with a cursor and an explicit stack (no
//! recursion, so no input nests it into a stack overflow), turning the tree
//! into [`Units`]: units where `detect` finds them, calls, strings and comments
//! where `lang` says they are, top-level statements for `statements` to group.
//! Then the extents: doc comments directly above a unit (or its attributes)
//! join it, spans nest, units are sorted parent first, test code passes its
//! flag down.
//!
//! Which nodes are units is `detect`'s business; the syntax tables are `lang`'s.

use std::cmp::Reverse;
use std::ops::Range;

use tree_sitter::{Node, Tree};

use super::detect::{self, Site};
use super::lang;
use super::statements::{self, Candidate};
use super::{Lang, Unit, UnitKind, Units};

/// A unit as found, before extents and order are settled.
struct Raw {
    kind: UnitKind,
    /// The unit's outermost node, trailing whitespace trimmed.
    outer: Range<usize>,
    /// Where the attributes and decorators just before `outer` start.
    attrs: Option<usize>,
    name: Option<Range<usize>>,
    body: Option<Range<usize>>,
    doc: Vec<Range<usize>>,
    test: bool,
    call: bool,
    parent: Option<usize>,
    span: Range<usize>,
}

/// What the walk knows about a node on the path from the root.
struct Frame<'t> {
    node: Node<'t>,
    /// The innermost unit holding the node (its own, if it is a unit's node).
    unit: Option<usize>,
    /// The node is at the top level: of the file, or of a module or namespace.
    top: bool,
    /// The node's unit is a module, so its body's items are top-level too.
    module: bool,
    /// The top-level statement candidate the node is in.
    candidate: Option<usize>,
    /// The node's children are top-level statement candidates.
    scope: bool,
    /// Where the attributes seen since the last other child start.
    pending_attrs: Option<usize>,
    /// The attributes just before this node.
    attrs: Option<usize>,
}

struct Walk<'a> {
    lang: Lang,
    text: &'a [u8],
    /// The byte offset of each line's start.
    lines: Vec<usize>,
    raws: Vec<Raw>,
    candidates: Vec<Candidate>,
    calls: Vec<Range<usize>>,
    strings: Vec<Range<usize>>,
    comments: Vec<Range<usize>>,
    /// Start offsets of docstrings, so they are not recorded as strings.
    docstrings: Vec<usize>,
    /// A top-level statement was seen (a Python module docstring comes first).
    past_first_statement: bool,
}

/// The units of `text`, parsed as `lang` into `tree`.
pub(super) fn units(lang: Lang, text: &[u8], tree: &Tree) -> Units {
    let lines = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text).map(|i| i + 1))
        .collect();
    let mut walk = Walk {
        lang,
        text,
        lines,
        raws: Vec::new(),
        candidates: Vec::new(),
        calls: Vec::new(),
        strings: Vec::new(),
        comments: Vec::new(),
        docstrings: Vec::new(),
        past_first_statement: false,
    };
    walk.walk(tree.root_node());
    walk.finish()
}

impl<'a> Walk<'a> {
    fn walk(&mut self, root: Node) {
        let mut stack = vec![Frame {
            node: root,
            unit: None,
            top: true,
            module: false,
            candidate: None,
            scope: true,
            pending_attrs: None,
            attrs: None,
        }];
        let mut cursor = root.walk();
        if !cursor.goto_first_child() {
            return;
        }
        loop {
            let descend = self.enter(cursor.node(), cursor.field_name(), &mut stack);
            if descend && cursor.goto_first_child() {
                continue;
            }
            loop {
                stack.pop();
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() || stack.len() <= 1 {
                    return;
                }
            }
        }
    }

    /// Pushes `node`'s frame and records what it is; false when its children
    /// need no visit.
    fn enter<'t>(
        &mut self,
        node: Node<'t>,
        field: Option<&str>,
        stack: &mut Vec<Frame<'t>>,
    ) -> bool {
        let lang = self.lang;
        let kind = node.kind();
        let root_child = stack.len() == 1;
        let Some(parent) = stack.last_mut() else {
            return false;
        };
        let named = node.is_named();
        let comment = named && lang::is_comment(kind);
        let attrs = if !named || comment {
            None
        } else if lang::is_attribute(lang, kind) {
            parent.pending_attrs.get_or_insert(node.start_byte());
            None
        } else {
            parent.pending_attrs.take()
        };
        let mut frame = Frame {
            node,
            unit: parent.unit,
            top: parent.top && (parent.module || lang::is_transparent(lang, parent.node.kind())),
            module: false,
            candidate: parent.candidate,
            scope: false,
            pending_attrs: None,
            attrs,
        };
        let in_scope = parent.scope && parent.unit.is_none();
        let after_passage = parent.candidate.is_none()
            && parent.unit.is_none()
            && lang::is_passage(lang, parent.node.kind());
        let container = parent.node.id();
        if !named {
            stack.push(frame);
            return false;
        }
        if comment {
            self.comments.push(self.trimmed(node.byte_range()));
            stack.push(frame);
            return false;
        }
        let import = lang::is_import(lang, node, self.text);
        if in_scope && root_child && !self.past_first_statement {
            self.past_first_statement = true;
            if let Some(docstring) = self.module_docstring(node) {
                self.comments.push(docstring.clone());
                self.docstrings.push(docstring.start);
                stack.push(frame);
                return false;
            }
        }
        let container_kind = lang::is_container(lang, kind);
        if in_scope && !container_kind {
            // `#ifdef NAME` and `#if CONDITION` are no statements
            let header = matches!(field, Some("name" | "condition"));
            let passage = lang::is_passage(lang, kind);
            let filler = lang::is_filler(lang, kind) || lang::is_attribute(lang, kind);
            if import || !(header || passage || filler) {
                self.candidates.push(Candidate {
                    range: self.trimmed(node.byte_range()),
                    container,
                    covered: false,
                    nested: false,
                    import,
                });
                frame.candidate = Some(self.candidates.len() - 1);
            }
        } else if container_kind && (in_scope || after_passage) {
            frame.scope = true;
        }
        stack.push(frame);
        if import {
            return false;
        }
        self.record(node);
        self.find_unit(stack);
        true
    }

    /// Calls and strings.
    fn record(&mut self, node: Node) {
        if let Some(callee) = lang::callee(self.lang, node) {
            if let Some(name) = lang::last_identifier(callee) {
                self.calls.push(name);
            }
        } else if self.lang == Lang::Rust && node.kind() == "token_tree" {
            lang::token_tree_calls(node, &mut self.calls);
        }
        if lang::is_string(self.lang, node.kind())
            && self.docstrings.binary_search(&node.start_byte()).is_err()
        {
            self.strings.push(lang::string_content(node));
        }
    }

    /// A Python module's docstring: its first statement, a lone string.
    fn module_docstring(&self, node: Node) -> Option<Range<usize>> {
        if self.lang != Lang::Python
            || node.kind() != "expression_statement"
            || node.named_child_count() != 1
        {
            return None;
        }
        let string = node.named_child(0).filter(|s| s.kind() == "string")?;
        Some(string.byte_range())
    }

    /// Whether the node on top of `stack` is a unit's node; records it if so.
    fn find_unit(&mut self, stack: &mut [Frame]) {
        let Some(at) = stack.len().checked_sub(1) else {
            return;
        };
        let node = stack[at].node;
        let mut outer = at;
        while outer >= 2 && lang::is_wrapper(self.lang, stack[outer - 1].node, stack[outer].node) {
            outer -= 1;
        }
        let outer_frame = &stack[outer];
        let enclosing = outer_frame
            .unit
            .and_then(|u| self.raws.get(u))
            .map(|u| (u.kind, u.call));
        let attrs_start = outer_frame.attrs;
        let outer_node = outer_frame.node;
        let attrs = attrs_start
            .and_then(|a| self.text.get(a..outer_node.start_byte()))
            .unwrap_or_default();
        let site = Site {
            lang: self.lang,
            text: self.text,
            node,
            parent: at.checked_sub(1).map(|p| stack[p].node),
            outer: outer_node,
            top: outer_frame.top,
            enclosing,
            attrs,
        };
        let Some(found) = detect::detect(&site) else {
            return;
        };
        if let Some(candidate) = outer_frame
            .candidate
            .and_then(|c| self.candidates.get_mut(c))
        {
            if outer_frame.top {
                candidate.covered = true;
            } else {
                candidate.nested = true;
            }
        }
        if let Some(docstring) = &found.docstring {
            self.docstrings.push(docstring.start);
        }
        let index = self.raws.len();
        let extent = self.trimmed(outer_node.byte_range());
        let bounded = |r: Range<usize>| {
            let r = self.trimmed(r);
            r.start.clamp(extent.start, extent.end)..r.end.clamp(extent.start, extent.end)
        };
        let name = found.name.map(bounded);
        let body = found.body.map(bounded);
        self.raws.push(Raw {
            kind: found.kind,
            outer: extent,
            attrs: attrs_start,
            name,
            body,
            doc: found.docstring.into_iter().collect(),
            test: found.test,
            call: found.call,
            parent: outer_frame.unit,
            span: 0..0,
        });
        for frame in &mut stack[outer..] {
            frame.unit = Some(index);
        }
        stack[at].module = found.kind == UnitKind::Module;
    }

    /// `range` without trailing whitespace (a Rust `///` comment or a C
    /// `#define` ends with its newline).
    fn trimmed(&self, range: Range<usize>) -> Range<usize> {
        let mut end = range.end.min(self.text.len());
        while end > range.start && self.text[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        range.start.min(end)..end
    }

    fn line_of(&self, offset: usize) -> usize {
        self.lines.partition_point(|&start| start <= offset)
    }

    fn line_start(&self, offset: usize) -> usize {
        let line = self.line_of(offset);
        self.lines.get(line.wrapping_sub(1)).copied().unwrap_or(0)
    }

    fn finish(mut self) -> Units {
        self.add_statements();
        self.comments.sort_by_key(|c| (c.start, c.end));
        self.comments.dedup();
        let mut claimed = vec![false; self.comments.len()];
        let floors = self.doc_floors();
        for (index, floor) in floors.into_iter().enumerate() {
            self.attach_docs(index, floor, &mut claimed);
        }
        self.nest_spans(&mut claimed);
        let comments: Vec<Range<usize>> = self
            .comments
            .iter()
            .zip(&claimed)
            .filter(|(_, &claimed)| !claimed)
            .map(|(c, _)| c.clone())
            .collect();
        let mut units = self.settle();
        units.comments = comments;
        if self.lang == Lang::Rust {
            inner_docs(&mut units, self.text);
        }
        self.calls.sort_by_key(|c| (c.start, c.end));
        self.calls.dedup();
        self.strings.sort_by_key(|s| (s.start, s.end));
        self.strings.dedup();
        units.calls = self.calls;
        units.strings = self.strings;
        units
    }

    /// Statements units from the top-level candidates; units nested in one
    /// become its children.
    fn add_statements(&mut self) {
        let runs = statements::runs(&self.candidates, self.text, |at| self.line_of(at));
        let first = self.raws.len();
        for run in runs {
            self.raws.push(Raw {
                kind: UnitKind::Statements,
                outer: run.clone(),
                attrs: None,
                name: None,
                body: Some(run),
                doc: Vec::new(),
                test: false,
                call: false,
                parent: None,
                span: 0..0,
            });
        }
        let (units, runs) = self.raws.split_at_mut(first);
        for unit in units.iter_mut().filter(|u| u.parent.is_none()) {
            let holder = runs.partition_point(|r| r.outer.start <= unit.outer.start);
            let Some(run) = holder.checked_sub(1) else {
                continue;
            };
            if runs[run].outer.end >= unit.outer.end {
                unit.parent = Some(first + run);
            }
        }
    }

    /// For each unit, where its doc comments may start: after its previous
    /// sibling and inside its parent, so that sibling spans never overlap.
    fn doc_floors(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.raws.len()).collect();
        order.sort_by_key(|&i| (self.raws[i].outer.start, Reverse(self.raws[i].outer.end)));
        let mut last_child: Vec<Option<usize>> = vec![None; self.raws.len() + 1];
        let mut floors = vec![0; self.raws.len()];
        for i in order {
            let raw = &self.raws[i];
            let slot = raw.parent.map_or(0, |p| p + 1);
            let after_sibling = last_child[slot].map_or(0, |s| self.raws[s].outer.end);
            let in_parent = raw.parent.map_or(0, |p| self.raws[p].outer.start);
            floors[i] = after_sibling.max(in_parent);
            last_child[slot] = Some(i);
        }
        floors
    }

    /// Claims the comments directly above unit `index` (or its attributes),
    /// none before `floor`, as its doc, and sets its span.
    fn attach_docs(&mut self, index: usize, floor: usize, claimed: &mut [bool]) {
        let raw = &self.raws[index];
        let outer_start = raw.outer.start;
        let mut top = raw.attrs.unwrap_or(outer_start).min(outer_start);
        let column = top - self.line_start(top);
        let mut docs = Vec::new();
        // doc comments between attributes (`#[derive] /// doc fn`)
        let first_after = self.comments.partition_point(|c| c.start < top);
        for (i, comment) in self.comments.iter().enumerate().skip(first_after) {
            if comment.start >= outer_start {
                break;
            }
            if !claimed[i] {
                claimed[i] = true;
                docs.push(comment.clone());
            }
        }
        let mut i = self.comments.partition_point(|c| c.end <= top);
        while let Some(prev) = i.checked_sub(1) {
            let comment = &self.comments[prev];
            if claimed[prev]
                || comment.start < floor
                || self.is_inner_doc(comment)
                || !self.is_directly_above(comment, top, column)
            {
                break;
            }
            claimed[prev] = true;
            docs.push(comment.clone());
            top = comment.start;
            i = prev;
        }
        let raw = &mut self.raws[index];
        raw.doc.extend(docs);
        raw.doc.sort_by_key(|d| d.start);
        raw.span = top..raw.outer.end.max(top);
    }

    /// A Rust `//!` or `/*!` comment: its module's doc, not the next item's.
    fn is_inner_doc(&self, comment: &Range<usize>) -> bool {
        self.lang == Lang::Rust && is_inner_doc(self.text, comment)
    }

    /// `comment` ends right above `top` (on the line before, or before it on
    /// its line), starts its own line, and is indented no deeper.
    fn is_directly_above(&self, comment: &Range<usize>, top: usize, column: usize) -> bool {
        let Some(between) = self.text.get(comment.end..top) else {
            return false;
        };
        let newlines = between.iter().filter(|&&b| b == b'\n').count();
        if newlines > 1 || !between.iter().all(u8::is_ascii_whitespace) {
            return false;
        }
        let line_start = self.line_start(comment.start);
        let before = self.text.get(line_start..comment.start).unwrap_or_default();
        before.iter().all(u8::is_ascii_whitespace) && comment.start - line_start <= column
    }

    /// Keeps every span inside its parent's; a doc comment that would stick
    /// out is given back to the comments.
    fn nest_spans(&mut self, claimed: &mut [bool]) {
        let depth: Vec<usize> = (0..self.raws.len())
            .map(|i| {
                let mut depth = 0;
                let mut at = self.raws[i].parent;
                while let Some(p) = at.filter(|_| depth <= self.raws.len()) {
                    depth += 1;
                    at = self.raws[p].parent;
                }
                depth
            })
            .collect();
        let mut order: Vec<usize> = (0..self.raws.len()).collect();
        order.sort_by_key(|&i| depth[i]);
        for i in order {
            let Some(parent) = self.raws[i].parent else {
                continue;
            };
            let bounds = self.raws[parent].span.clone();
            let raw = &mut self.raws[i];
            if raw.span.start >= bounds.start && raw.span.end <= bounds.end {
                continue;
            }
            raw.span = raw.span.start.clamp(bounds.start, bounds.end)
                ..raw.span.end.clamp(bounds.start, bounds.end);
            let span = raw.span.clone();
            raw.doc.retain(|d| {
                let inside = d.start >= span.start && d.end <= span.end;
                if !inside {
                    if let Ok(at) = self
                        .comments
                        .binary_search_by_key(&(d.start, d.end), |c| (c.start, c.end))
                    {
                        claimed[at] = false;
                    }
                }
                inside
            });
        }
    }

    /// Sorts the units parent first, renumbers parents, passes test flags
    /// down and counts lines.
    fn settle(&mut self) -> Units {
        let raws = std::mem::take(&mut self.raws);
        // Of two units with one span, the parent first (a run of statements
        // that is only a declaration the grammar's error recovery left in it).
        let depth = |mut i: usize| {
            let mut depth = 0;
            while let Some(p) = raws[i].parent.filter(|_| depth < raws.len()) {
                depth += 1;
                i = p;
            }
            depth
        };
        let mut order: Vec<usize> = (0..raws.len()).collect();
        order.sort_by_cached_key(|&i| (raws[i].span.start, Reverse(raws[i].span.end), depth(i)));
        let mut new_index = vec![0; raws.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut units: Vec<Unit> = Vec::with_capacity(raws.len());
        for &old in &order {
            let raw = &raws[old];
            units.push(self.unit(raw, raw.parent.map(|p| new_index[p])));
        }
        if self.lang == Lang::Java {
            // a class holding test methods is a test class
            for i in (0..units.len()).rev() {
                if let Some(parent) = units[i].parent.filter(|_| units[i].test) {
                    if units[parent].kind == UnitKind::Class {
                        units[parent].test = true;
                    }
                }
            }
        }
        for i in 0..units.len() {
            // parents come first, so their flag is final
            if let Some(parent) = units[i].parent.filter(|&p| p < i) {
                units[i].test |= units[parent].test;
            }
        }
        Units {
            units,
            ..Units::default()
        }
    }

    fn unit(&self, raw: &Raw, parent: Option<usize>) -> Unit {
        let header_start = raw.attrs.unwrap_or(raw.outer.start).min(raw.outer.start);
        let header = match (&raw.body, raw.kind) {
            (Some(body), UnitKind::Statements) => body.start..body.start,
            (Some(body), _) => self.trimmed(header_start..body.start.max(header_start)),
            (None, _) => header_start..raw.outer.end.max(header_start),
        };
        let def = raw.name.as_ref().map_or(raw.outer.start, |n| n.start);
        Unit {
            kind: raw.kind,
            name: raw.name.clone(),
            start_line: self.line_of(raw.span.start),
            end_line: self.line_of(raw.span.end.saturating_sub(1).max(raw.span.start)),
            def_line: self.line_of(def),
            header,
            body: raw.body.clone(),
            doc: raw.doc.clone(),
            parent,
            test: raw.test,
            span: raw.span.clone(),
        }
    }
}

/// Rust inner doc comments (`//!`, `/*!`) document the module they are in.
fn inner_docs(units: &mut Units, text: &[u8]) {
    let mut kept = Vec::with_capacity(units.comments.len());
    for comment in std::mem::take(&mut units.comments) {
        match units
            .at_byte(comment.start)
            .filter(|_| is_inner_doc(text, &comment))
        {
            Some(at) => {
                let doc = &mut units.units[at].doc;
                doc.push(comment);
                doc.sort_by_key(|d| d.start);
            }
            None => kept.push(comment),
        }
    }
    units.comments = kept;
}

fn is_inner_doc(text: &[u8], comment: &Range<usize>) -> bool {
    text.get(comment.clone())
        .is_some_and(|t| t.starts_with(b"//!") || t.starts_with(b"/*!"))
}
