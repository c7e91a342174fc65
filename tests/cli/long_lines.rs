//! Long lines (issue 16, item 13): a natural-language result line longer than
//! `LONG_LINE_BYTES` is cut to a preview around its matched words, with
//! `[... N bytes omitted]` markers; `-a`, literal and regex queries and
//! `--json` keep every byte.

use serde_json::Value;

use crate::harness::Dir;

/// A minified bundle: one 100 KB line with the answer in its middle.
fn bundle() -> (Dir, String) {
    let d = Dir::new();
    let line = format!(
        "{}function retryBackoff(attempt){{return 2**attempt}}{}",
        "var a=1;".repeat(6_250),
        "var b=2;".repeat(6_250)
    );
    d.write("dist/app.min.js", format!("{line}\n"));
    d.write("src/other.py", "def unrelated():\n    pass\n");
    (d, line)
}

#[test]
fn a_long_natural_language_result_line_is_cut_around_its_match() {
    let (d, line) = bundle();
    let run = d.run(&["retry backoff", "."]);
    run.code(0);
    let printed = run
        .stdout
        .lines()
        .find(|l| l.starts_with("1:\t"))
        .unwrap_or_else(|| panic!("no line printed\n{}", run.describe));
    let before = line.find("function retryBackoff").unwrap();
    assert!(printed.contains("retryBackoff(attempt)"), "{printed}");
    assert!(printed.len() < 400, "{} bytes printed", printed.len());
    let (head, rest) = printed["1:\t".len()..].split_once("] ").unwrap();
    let left: usize = head
        .strip_prefix("[... ")
        .and_then(|h| h.strip_suffix(" bytes omitted"))
        .unwrap()
        .parse()
        .unwrap();
    let (shown, tail) = rest.rsplit_once(" [... ").unwrap();
    let right: usize = tail
        .strip_suffix(" bytes omitted]")
        .unwrap()
        .parse()
        .unwrap();
    // The counts add up, and the window is the line's own bytes.
    assert_eq!(left + shown.len() + right, line.len());
    assert_eq!(&line[left..left + shown.len()], shown);
    assert!(left < before && left + shown.len() > before);
}

#[test]
fn text_mode_exact_queries_and_json_keep_every_byte() {
    let (d, line) = bundle();
    let whole = format!("./dist/app.min.js\n1:\t{line}\n");
    d.run(&["-a", "retry backoff", "dist"])
        .code(0)
        .stdout_is(&whole);
    d.run(&["retryBackoff", "dist"]).code(0).stdout_is(&whole);
    d.run(&["retryBackoff\\(", "dist"])
        .code(0)
        .stdout_is(&whole);
    let run = d.run(&["--json", "retry backoff", "dist"]);
    run.code(0);
    let m: Value = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "match")
        .unwrap();
    assert_eq!(m["data"]["lines"]["text"], format!("{line}\n"));
    let sub = &m["data"]["submatches"][0];
    let (start, end) = (
        sub["start"].as_u64().unwrap() as usize,
        sub["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(Some(&line[start..end]), sub["match"]["text"].as_str());
    assert!(start > 40_000, "offsets are into the whole line: {start}");
}
