//! `--max-lines N` on a natural-language query prints the N best lines of
//! the ranking (issue 28, item 2): the first file's best line, then the best
//! of the rest by score, never a weaker line of the same function in place
//! of a stronger one elsewhere. The MCP `max_lines` argument is the same
//! (tests/cli/mcp.rs).

use crate::harness::{Dir, Run};

/// A Go package whose `fish.go` answers "fish shell completion" in two
/// functions (lines 4 and 18), with a weaker line (7) inside the first.
pub(crate) fn fish_project() -> Dir {
    let d = Dir::new();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    for i in 1..=30 {
        d.write(
            &format!("noise{i}.go"),
            format!("package cli\n\nfunc helper{i}(a int) int {{\n\treturn a + {i}\n}}\n"),
        );
    }
    d.write(
        "fish.go",
        "package cli\n\n\
         // ToFishCompletion writes the fish shell completion script.\n\
         func (cmd *Command) ToFishCompletion() (string, error) {\n\
         \tvar w bytes.Buffer\n\
         \tname := cmd.Name\n\
         \t// the shell name\n\
         \t_ = name\n\
         \t// completion goes here\n\
         \treturn w.String(), nil\n\
         }\n\n\
         func helperA() {}\n\n\
         func helperB() {}\n\n\
         // writeFishCompletion renders the fish shell completion template.\n\
         func writeFishCompletion(w io.Writer) error {\n\
         \treturn nil\n\
         }\n",
    );
    d
}

pub(crate) const FISH_QUERY: &str = "fish shell completion";

/// `(line, score)` of every line `--explain` explains, in order.
fn explained(run: &Run) -> Vec<(usize, f64)> {
    run.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("kgrep: explain:   "))
        .filter_map(|l| {
            let (n, rest) = l.split_once(": ")?;
            let score = rest.split_whitespace().next()?.parse().ok()?;
            Some((n.parse().ok()?, score))
        })
        .collect()
}

#[test]
fn a_small_cap_prints_the_best_lines() {
    let d = fish_project();
    let all = d.run(&["--offline", "--explain", FISH_QUERY, "."]);
    all.code(0);
    let mut scores: Vec<f64> = explained(&all).into_iter().map(|(_, s)| s).collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    assert!(scores.len() >= 3, "{}", all.describe);
    for n in 1..=scores.len() {
        let cap = n.to_string();
        let run = d.run(&[
            "--offline",
            "--explain",
            "--max-lines",
            &cap,
            FISH_QUERY,
            ".",
        ]);
        run.code(0);
        let mut got: Vec<f64> = explained(&run).into_iter().map(|(_, s)| s).collect();
        got.sort_by(|a, b| b.total_cmp(a));
        assert_eq!(got, scores[..n], "--max-lines {n}\n{}", run.describe);
    }
    // Both definitions, not the comment inside the first one.
    d.run(&["--offline", "--max-lines", "2", FISH_QUERY, "."])
        .code(0)
        .stdout_is(
            "./fish.go\n4:\tfunc (cmd *Command) ToFishCompletion() (string, error) {\n\
             18:\tfunc writeFishCompletion(w io.Writer) error {\n",
        );
}
