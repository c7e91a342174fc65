//! Natural-language queries on trees past the first pass's sample (issue 28,
//! item 1): when every word of the query is common, the files holding them are
//! still found, and with `--max-lines 0` every one of them is printed, the
//! best first.

use crate::harness::{Dir, Run};

/// A tree of `files` Python files; every `every`-th one renders a widget.
fn widgets(files: usize, every: usize) -> Dir {
    let d = Dir::new();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    for i in 0..files {
        let mut text = format!("def helper_{i}(a, b):\n    return a + b\n");
        if i.is_multiple_of(every) {
            text.push_str(&format!(
                "\n\ndef show_{i}(x):\n    render_widget(x)\n    return x\n"
            ));
        }
        d.write(&format!("pkg{:03}/mod{i:05}.py", i / 100), text);
    }
    d
}

/// The headings printed, without rlmgrep's `./`.
fn files_of(run: &Run) -> Vec<String> {
    run.headings()
        .into_iter()
        .map(|h| h.trim_start_matches("./").to_string())
        .collect()
}

#[test]
fn common_words_are_found_past_the_sample() {
    // 2,000 files, 286 of them holding both words: each word is in 14% of
    // the sample, "too common to count" in the rest of the tree.
    let d = widgets(2000, 7);
    let run = d.run(&["--offline", "-v", "render widget", "."]);
    run.code(0).stdout_has("render_widget(x)").stderr_has(
        "counted in every file (too few files hold a rarer query word): render, widget",
    );
    assert!(files_of(&run).len() > 1, "{}", run.describe);
}

#[test]
fn one_word_in_every_file_is_found_past_the_sample() {
    let d = Dir::new();
    for i in 0..1001 {
        d.write(
            &format!("f{i:05}.py"),
            format!("x{i} = compute()\nvalue = x{i}\n"),
        );
    }
    d.run(&["--offline", "value", "."])
        .code(0)
        .stdout_has("2:\tvalue = x");
}

#[test]
fn every_file_holding_the_words_can_be_printed_best_first() {
    // 20,000 files, 2,858 holding `render_widget`; two of them do it best:
    // they define it and render widgets in several places.
    let d = widgets(20_000, 7);
    let best = [("pkg051/mod05110.py"), ("pkg170/mod17003.py")];
    for key in best {
        d.write(
            key,
            "def render_widget(widget):\n    \"\"\"Render one widget.\"\"\"\n    \
             return widget.render()\n\n\ndef render_widgets(widgets):\n    \
             for widget in widgets:\n        render_widget(widget)\n",
        );
    }
    let holding: usize = (0..20_000usize).filter(|i| i.is_multiple_of(7)).count()
        + best
            .iter()
            .filter(|k| {
                let n: usize = k[10..15].parse().unwrap();
                !n.is_multiple_of(7)
            })
            .count();
    let run = d.run(&["--offline", "--max-lines", "0", "render widget", "."]);
    run.code(0);
    let printed = files_of(&run);
    assert_eq!(printed.len(), holding, "every file holding the words");
    let mut first_two = printed[..2].to_vec();
    first_two.sort();
    assert_eq!(first_two, best, "the best first");
}
