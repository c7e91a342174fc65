//! Grouping top-level statements outside any unit into small units: runs of
//! consecutive statements of at most [`MAX_RUN_LINES`] lines, cut at a blank
//! line when one is there. A statement that holds units (a Python `if
//! __name__ == "__main__":` defining functions, a JS IIFE) is a run of its own,
//! their parent.
//!
//! Which nodes are statements is `extract`'s business; this module sees byte
//! ranges and lines only.

use std::ops::Range;

/// The most lines a run of statements spans, unless one statement is longer:
/// about what a reader takes in at a glance, and what a printed answer shows.
pub(super) const MAX_RUN_LINES: usize = 15;

/// A top-level node, in document order.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub range: Range<usize>,
    /// The node id of the container it sits in: statements in different
    /// containers (inside and outside an `#ifdef`) never share a run.
    pub container: usize,
    /// It is (or directly wraps) a unit, so it is no statement.
    pub covered: bool,
    /// It holds units deeper down: a run of its own, their parent.
    pub nested: bool,
    /// An import: no statement, and it ends a run.
    pub import: bool,
}

/// The runs, each the byte range from its first statement's start to its last
/// one's end.
pub(super) fn runs(
    candidates: &[Candidate],
    text: &[u8],
    line_of: impl Fn(usize) -> usize,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut run: Vec<Range<usize>> = Vec::new();
    let mut container = None;
    for candidate in candidates {
        let statement = !candidate.covered && !candidate.import;
        if !statement || candidate.nested || container != Some(candidate.container) {
            close(&mut run, &mut out);
        }
        container = Some(candidate.container);
        if !statement {
            continue;
        }
        if candidate.nested {
            out.push(candidate.range.clone());
            continue;
        }
        let range = candidate.range.clone();
        while let Some(first) = run.first() {
            let lines = line_of(end_byte(&range)) + 1 - line_of(first.start);
            if lines <= MAX_RUN_LINES {
                break;
            }
            // cut at the last blank line inside the run, else before `range`
            let cut = (1..run.len())
                .rev()
                .find(|&i| has_blank_line(text, run[i - 1].end, run[i].start))
                .unwrap_or(run.len());
            let rest = run.split_off(cut);
            close(&mut run, &mut out);
            run = rest;
        }
        run.push(range);
    }
    close(&mut run, &mut out);
    out
}

fn close(run: &mut Vec<Range<usize>>, out: &mut Vec<Range<usize>>) {
    if let (Some(first), Some(last)) = (run.first(), run.last()) {
        out.push(first.start..last.end);
    }
    run.clear();
}

/// The offset of a range's last byte (its start when it is empty).
fn end_byte(range: &Range<usize>) -> usize {
    range.end.saturating_sub(1).max(range.start)
}

/// A line holding only whitespace between two offsets.
fn has_blank_line(text: &[u8], from: usize, to: usize) -> bool {
    let Some(between) = text.get(from..to) else {
        return false;
    };
    let mut lines = between.split(|&b| b == b'\n');
    lines.next(); // the rest of `from`'s line
    let mut middle: Vec<&[u8]> = lines.collect();
    middle.pop(); // the start of `to`'s line
    middle.iter().any(|l| l.iter().all(u8::is_ascii_whitespace))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statement(text: &str, line: &str) -> Candidate {
        let start = text.find(line).expect("the line is in the text");
        Candidate {
            range: start..start + line.len(),
            container: 0,
            covered: false,
            nested: false,
            import: false,
        }
    }

    fn line_of(text: &str) -> impl Fn(usize) -> usize + '_ {
        move |at| text[..at].matches('\n').count() + 1
    }

    fn shown<'t>(text: &'t str, runs: &[Range<usize>]) -> Vec<&'t str> {
        runs.iter().map(|r| &text[r.clone()]).collect()
    }

    #[test]
    fn consecutive_statements_form_one_run() {
        let text = "a()\nb()\n\nc()\n";
        let candidates: Vec<_> = ["a()", "b()", "c()"]
            .iter()
            .map(|l| statement(text, l))
            .collect();
        let runs = runs(&candidates, text.as_bytes(), line_of(text));
        assert_eq!(shown(text, &runs), ["a()\nb()\n\nc()"]);
    }

    #[test]
    fn long_runs_are_cut_at_the_last_blank_line() {
        let mut text = String::new();
        let mut names = Vec::new();
        for i in 0..20 {
            let name = format!("s{i:02}()");
            text.push_str(&name);
            text.push_str(if i == 9 { "\n\n" } else { "\n" });
            names.push(name);
        }
        let candidates: Vec<_> = names.iter().map(|l| statement(&text, l)).collect();
        let runs = runs(&candidates, text.as_bytes(), line_of(&text));
        let first_lines: Vec<&str> = runs.iter().map(|r| &text[r.start..r.start + 5]).collect();
        assert_eq!(first_lines, ["s00()", "s10()"]);
        assert!(text[runs[0].clone()].ends_with("s09()"));
    }

    #[test]
    fn without_a_blank_line_runs_are_cut_at_the_limit() {
        let text: String = (0..40).map(|i| format!("s{i:02}()\n")).collect();
        let candidates: Vec<_> = (0..40)
            .map(|i| statement(&text, &format!("s{i:02}()")))
            .collect();
        let runs = runs(&candidates, text.as_bytes(), line_of(&text));
        let lines: Vec<usize> = runs
            .iter()
            .map(|r| text[r.clone()].lines().count())
            .collect();
        assert_eq!(
            lines,
            [MAX_RUN_LINES, MAX_RUN_LINES, 40 - 2 * MAX_RUN_LINES]
        );
    }

    #[test]
    fn units_imports_and_containers_end_runs_and_nested_stand_alone() {
        let text = "a()\nb()\nimport x\nc()\nif x: def f(): pass\nd()\ne()\n";
        let mut candidates: Vec<_> = [
            "a()",
            "b()",
            "import x",
            "c()",
            "if x: def f(): pass",
            "d()",
            "e()",
        ]
        .iter()
        .map(|l| statement(text, l))
        .collect();
        candidates[2].import = true;
        candidates[4].nested = true;
        candidates[6].container = 1;
        let runs = runs(&candidates, text.as_bytes(), line_of(text));
        assert_eq!(
            shown(text, &runs),
            ["a()\nb()", "c()", "if x: def f(): pass", "d()", "e()"]
        );
    }
}
