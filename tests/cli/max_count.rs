//! `-m NUM` on a natural-language query: each file keeps its *best* lines, and
//! what a capped file leaves of `--max-lines` goes to the files after it
//! (issue 16, item 1). Literal and regex queries keep the lowest line numbers,
//! as grep does.

use std::collections::BTreeMap;

use crate::harness::{Dir, Run};

/// An app whose comment (line 3) mentions the query before the definition
/// that answers it (line 12), and a second file with one good line.
fn project() -> Dir {
    let d = Dir::new();
    d.write(
        "src/app.py",
        "import os\n\n# Blueprints are registered lazily; see register_blueprint below.\nLAZY = True\n\n\n\
         class App:\n    def __init__(self):\n        self.blueprints = {}\n        self.config = {}\n\n    \
         def register_blueprint(self, blueprint, **options):\n        \
         \"\"\"Register a blueprint: its routes are registered on the app.\"\"\"\n        \
         name = options.get(\"name\", blueprint.name)\n        self.blueprints[name] = blueprint\n        \
         blueprint.register(self, options)\n",
    );
    d.write(
        "src/blueprint.py",
        "class Blueprint:\n    def __init__(self, name):\n        self.name = name\n        \
         self.deferred = []\n\n    def register(self, app, options):\n        \
         \"\"\"Called when the blueprint is registered on an app.\"\"\"\n        \
         for fn in self.deferred:\n            fn(app)\n",
    );
    d.write("src/views.py", "def index():\n    return \"blueprint\"\n");
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    d
}

const QUERY: &str = "how are blueprints registered";

/// Printed lines per heading, in order.
fn printed(run: &Run) -> BTreeMap<String, Vec<usize>> {
    let mut out: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut file = String::new();
    for line in run.stdout.lines().filter(|l| !l.is_empty()) {
        match line.split_once(":\t") {
            Some((n, _)) => out
                .entry(file.clone())
                .or_default()
                .push(n.parse().unwrap()),
            None => file = line.to_string(),
        }
    }
    out
}

/// The best-scored line of each file, from `--explain` of a run.
fn best_lines(run: &Run) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut file = String::new();
    let mut best = f64::MIN;
    for line in run.stderr.lines() {
        let Some(rest) = line.strip_prefix("kgrep: explain: ") else {
            continue;
        };
        if let Some(rest) = rest.strip_prefix("  ") {
            let (n, rest) = rest.trim_start().split_once(": ").unwrap();
            // A line's explanation; a unit's (`function f (lines 3-9): …`) is skipped.
            let Ok(n) = n.parse::<usize>() else {
                continue;
            };
            let score: f64 = rest.split(' ').next().unwrap().parse().unwrap();
            if score > best {
                best = score;
                out.insert(file.clone(), n);
            }
        } else {
            file = format!("./{}", rest.split(':').next().unwrap());
            best = f64::MIN;
        }
    }
    out
}

#[test]
fn m_keeps_each_files_best_lines() {
    let d = project();
    // Every strong line (`--max-lines 0`), so the weaker comment above the
    // definition is printed too.
    let full = d.run(&["--explain", "--max-lines", "0", QUERY, "."]);
    full.code(0);
    let best = best_lines(&full);
    let shown = printed(&full);
    let app = &shown["./src/app.py"];
    assert!(
        app.len() > 1 && app[0] != best["./src/app.py"],
        "the fixture no longer has a weaker line before the best one\n{}",
        full.describe
    );
    let one = d.run(&["--max-lines", "0", "-m", "1", QUERY, "."]);
    one.code(0);
    let kept = printed(&one);
    assert_eq!(kept.len(), shown.len(), "{}", one.describe);
    for (file, lines) in &kept {
        assert_eq!(lines, &vec![best[file]], "{file}\n{}", one.describe);
    }
    one.stdout_has("12:\t    def register_blueprint(")
        .stdout_lacks("3:\t# Blueprints");
}

#[test]
fn m_frees_the_budget_for_the_next_files() {
    let d = project();
    let full = d.run(&[QUERY, "."]);
    let budget = printed(&full)["./src/app.py"].len().to_string();
    // --max-lines as large as the first file's share: before, -m cut that
    // file down and the second file never came.
    let run = d.run(&["-m", "1", "--max-lines", &budget, QUERY, "."]);
    run.code(0);
    let kept = printed(&run);
    assert_eq!(
        kept.keys().collect::<Vec<_>>(),
        ["./src/app.py", "./src/blueprint.py"],
        "{}",
        run.describe
    );
    assert!(kept.values().all(|l| l.len() == 1), "{}", run.describe);
}

#[test]
fn m_on_an_exact_query_keeps_the_lowest_lines() {
    let d = project();
    d.run(&["-m", "1", "blueprint.name", "src/app.py"])
        .code(0)
        .stdout_is("./src/app.py\n14:\t        name = options.get(\"name\", blueprint.name)\n");
    let run = d.run(&["-m", "2", r"self\.\w+ =", "src"]);
    run.code(0);
    assert_eq!(
        printed(&run)["./src/app.py"],
        vec![9, 10],
        "{}",
        run.describe
    );
}
