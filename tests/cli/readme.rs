//! The console examples in README.md are real: each `$ kgrep …` block, run in the
//! folder its `$ cd …` line names, prints exactly what the README shows.

use std::path::Path;

/// One example: the folder, the argv after `kgrep`, the expected stdout.
struct Example {
    dir: String,
    args: Vec<String>,
    expected: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut dir = String::from(".");
    let mut current: Option<Example> = None;
    for line in readme.lines() {
        if let Some(rest) = line.strip_prefix("$ cd ") {
            dir = rest.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("$ kgrep ") {
            let args = shell_words(rest);
            current = Some(Example {
                dir: dir.clone(),
                args,
                expected: String::new(),
            });
        } else if line.starts_with("```") {
            out.extend(current.take());
            dir = String::from(".");
        } else if let Some(ex) = current.as_mut() {
            ex.expected.push_str(line);
            ex.expected.push('\n');
        }
    }
    out
}

/// Splits on spaces, honouring double quotes (all the README needs).
fn shell_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn readme_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(
        !examples.is_empty(),
        "no `$ kgrep` examples found in README.md"
    );
    for ex in examples {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("kgrep"))
            .args(&ex.args)
            .current_dir(root.join(&ex.dir))
            .env_clear()
            .env("HOME", root.join("target"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            ex.expected,
            "README example `kgrep {:?}` in {}",
            ex.args,
            ex.dir
        );
    }
}
