//! No import cycle among the source files (CONTRIBUTING: the tree reads like
//! the pipeline, each stage importing only the stages before it and shared
//! utilities). A file's imports are the `crate::…` and `super::…` paths of
//! its code outside tests, each taken to the deepest module file it names; a
//! folder's `mod.rs` and its own submodules are one family and may name each
//! other (a parent re-exports, a child uses its parent's types).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Module path of every source file: `pipeline/mod.rs` is `pipeline`,
/// `rank/natural.rs` is `rank/natural`, `lib.rs` the root (empty).
fn modules(dir: &Path, out: &mut BTreeMap<Vec<String>, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(src()).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
}

/// The code of a file before its tests, without `//` comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The import graph: each file's module to the modules it names.
fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = BTreeMap::new();
    modules(&src(), &mut files);
    assert!(files.len() > 50, "found {} files", files.len());
    let deepest = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| files.contains_key(p))
    };
    let single = regex::Regex::new(r"\b(crate|super)((?:::\w+)+)").unwrap();
    let group = regex::Regex::new(r"\b(crate|super)((?:::\w+)*)::\{([^}]*)\}").unwrap();
    let mut edges = BTreeMap::new();
    for (module, path) in &files {
        let text = code(path);
        let base = |root: &str| -> Vec<String> {
            if root == "crate" {
                Vec::new()
            } else {
                module[..module.len().saturating_sub(1)].to_vec()
            }
        };
        let mut named = BTreeSet::new();
        let mut add = |path: Vec<String>| {
            if let Some(target) = deepest(&path) {
                // A folder's `mod.rs` and its submodules are one family.
                let family = target.starts_with(module) || module.starts_with(&target);
                if !family {
                    named.insert(target);
                }
            }
        };
        for c in single.captures_iter(&text) {
            let mut path = base(&c[1]);
            path.extend(c[2].split("::").filter(|s| !s.is_empty()).map(String::from));
            add(path);
        }
        for c in group.captures_iter(&text) {
            let mut prefix = base(&c[1]);
            prefix.extend(c[2].split("::").filter(|s| !s.is_empty()).map(String::from));
            for item in c[3].split(',') {
                let first = item.trim().split("::").next().unwrap_or_default();
                let first = first.split_whitespace().next().unwrap_or_default();
                if !first.is_empty() && first != "self" {
                    let mut path = prefix.clone();
                    path.push(first.to_string());
                    add(path);
                }
            }
        }
        edges.insert(module.clone(), named);
    }
    edges
}

/// The import cycles: strongly connected components of more than one file.
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    // Kosaraju: finish order on the graph, then components on its reverse.
    fn visit<'a>(
        n: &'a Vec<String>,
        next: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        seen: &mut BTreeSet<&'a Vec<String>>,
        out: &mut Vec<&'a Vec<String>>,
    ) {
        if !seen.insert(n) {
            return;
        }
        for m in next.get(n).into_iter().flatten() {
            visit(m, next, seen, out);
        }
        out.push(n);
    }
    let mut reverse: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, tos) in edges {
        for to in tos {
            reverse.entry(to.clone()).or_default().insert(from.clone());
        }
    }
    let (mut seen, mut order) = (BTreeSet::new(), Vec::new());
    for n in edges.keys() {
        visit(n, edges, &mut seen, &mut order);
    }
    let mut assigned = BTreeSet::new();
    let mut found = Vec::new();
    for n in order.into_iter().rev() {
        let mut component = Vec::new();
        visit(n, &reverse, &mut assigned, &mut component);
        if component.len() > 1 {
            let mut names: Vec<String> = component.iter().map(|m| m.join("/")).collect();
            names.sort();
            found.push(names);
        }
    }
    found
}

#[test]
fn no_source_file_is_in_an_import_cycle() {
    assert_eq!(cycles(&graph()), Vec::<Vec<String>>::new());
}

#[test]
fn the_cycle_check_finds_a_cycle() {
    let m = |s: &str| -> Vec<String> { s.split('/').map(String::from).collect() };
    let mut edges = graph();
    // Plant a circle: the first stage imports the last one.
    edges
        .entry(m("query"))
        .or_default()
        .insert(m("render/print"));
    edges
        .entry(m("render/print"))
        .or_default()
        .insert(m("query"));
    let found = cycles(&edges);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains(&"query".to_string()), "{found:?}");
}

#[test]
fn the_graph_sees_imports() {
    let edges = graph();
    let of = |s: &str| edges.get(&s.split('/').map(String::from).collect::<Vec<_>>());
    let pipeline = of("pipeline").expect("pipeline/mod.rs");
    assert!(pipeline.contains(&vec!["rank".to_string()]), "{pipeline:?}");
    let consult = of("fallback/consult").expect("fallback/consult.rs");
    assert!(consult.iter().any(|m| m[0] == "llm"), "{consult:?}");
}
