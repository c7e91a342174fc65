//! Inputs at a scale that used to be slow or unbounded (issue 28, items
//! 13–16): each is now bounded, and these tests check the mechanism that
//! bounds it, never a timing (the figures are `tests/bench/limits.py`'s). A
//! deadline here is a generous bound on a run whose old cost was far past it.

use std::time::Duration;

use crate::harness::{Dir, Run};

/// `i` in letters (`0` is `a`, `26` is `ba`): a word the query splitter
/// keeps whole, unlike one with digits.
fn letters(mut i: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (i % 26) as u8);
        i /= 26;
        if i == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

/// A learned thesaurus of `n` concepts, three synonyms each, as kgrep writes
/// one (provenance included): concept `gronkW` with `zibW` and `wobW`, for
/// `W` the concept's number in letters.
fn learned_thesaurus(n: usize) -> String {
    let mut data = Vec::with_capacity(3 * n);
    let mut meta = Vec::with_capacity(n);
    for i in 0..n {
        let (id, w) = (i + 1, letters(i));
        for synonym in [format!("gronk{w}"), format!("zib{w}"), format!("wob{w}")] {
            data.push(format!(
                r#""{synonym}": {{"id": {id}, "nterm": "gronk{w}"}}"#
            ));
        }
        meta.push(format!(
            r#""gronk{w}": {{"id": {id}, "status": "proposed", "hits": 1}}"#
        ));
    }
    format!(
        r#"{{"name": "kgrep learned concepts", "data": {{{}}}, "kgrep": {{"concepts": {{{}}}}}}}"#,
        data.join(", "),
        meta.join(", ")
    )
}

fn run_within(dir: &Dir, args: &[&str], limit: Duration) -> Run {
    let mut cmd = dir.cmd();
    cmd.args(args).timeout(limit);
    crate::harness::finish(&mut cmd, args, dir.path())
}

#[test]
fn a_learned_thesaurus_of_sixty_thousand_concepts_loads() {
    // Loading was quadratic in the concepts: each one was looked for among
    // those already loaded. 60k concepts took minutes of CPU in a debug
    // build, 30k about 20 s; a linear load takes seconds, so a minute is a
    // bound only the quadratic load misses.
    let dir = Dir::new();
    let w = letters(41_234);
    dir.write("notes.txt", format!("the wob{w} setting is read here\n"));
    let learned = dir.learned_path();
    std::fs::create_dir_all(learned.parent().unwrap()).unwrap();
    std::fs::write(&learned, learned_thesaurus(60_000)).unwrap();
    let query = format!("where is zib{w} read");
    let out = run_within(
        &dir,
        &["-v", "--offline", &query, "."],
        Duration::from_secs(60),
    );
    // The query's word found its learned concept, and through it the
    // concept's other synonym, the one the file holds.
    out.code(0)
        .stderr_has(&format!(
            "thesaurus: from the learned layer: gronk{w} (proposed)"
        ))
        .stdout_has(&format!("1:\tthe wob{w} setting is read here"));
}

/// The number after `before` and before `after` in `text`.
fn number_between(text: &str, before: &str, after: &str) -> usize {
    let start = text.find(before).map(|i| i + before.len());
    let rest = start.map(|i| &text[i..]).unwrap_or_default();
    let digits = rest.find(after).map(|i| &rest[..i]).unwrap_or_default();
    digits
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("no number between {before:?} and {after:?} in\n{text}"))
}

#[test]
fn a_misspelled_query_reads_a_bounded_vocabulary_and_compares_few_words() {
    // Issue 28: a typo read up to 90 files of 256 KB each for the vocabulary,
    // and computed the edit distance to every word near the typo's length.
    let dir = Dir::new();
    dir.write(
        "src/retry.rs",
        "/// How long to wait before the next attempt.\nfn retry_backoff(attempt: u32) -> u64 {\n    \
         100 << attempt\n}\n",
    );
    // 24 files of 300 KB of distinct identifiers of 6 and 7 letters (the
    // typo's length, and one more): 7 MB of vocabulary text.
    for f in 0..24 {
        let mut text = String::with_capacity(310_000);
        let mut i = 0;
        while text.len() < 300_000 {
            let n = f * 20_000 + i;
            text.push_str(&format!(
                "fn handle_{}_{}() {{}}\n",
                letters(11_881_376 + n),
                letters(308_915_776 + n)
            ));
            i += 1;
        }
        dir.write(&format!("src/gen{f:02}.rs"), text);
    }
    let out = run_within(
        &dir,
        &[
            "-v",
            "--offline",
            "where is the retry bakcoff delay computed",
            ".",
        ],
        Duration::from_secs(120),
    );
    out.code(0)
        .stdout_has("2:\tfn retry_backoff(attempt: u32) -> u64 {");
    let typo = out
        .stderr
        .lines()
        .find(|l| l.contains("typo: \"bakcoff\" is in no file"));
    assert!(
        typo.is_some_and(|l| l.contains("backoff")),
        "the typo is corrected\n{}",
        out.describe
    );
    let read = number_between(&out.stderr, "files (", " bytes read, at most");
    let cap = number_between(&out.stderr, "bytes read, at most ", ")");
    let files = number_between(&out.stderr, "words from ", " files");
    assert!(
        read <= cap && cap < 7_000_000,
        "{read} of {cap}\n{}",
        out.describe
    );
    assert_eq!(files, 25, "every file gave its share");
    // The edit distance was computed for a few words, not all near in length.
    let compared = number_between(&out.stderr, "(compared with ", " of the ");
    let near = number_between(&out.stderr, " of the ", " words near its length");
    assert!(near > 1_000 && compared * 50 < near, "{compared} of {near}");
}

#[test]
fn a_document_whose_text_passes_the_limit_is_cut_with_a_warning() {
    // Issue 28: a .docx holding 120 MiB of XML cost 12 s and 1.1 GB. Its
    // text is now cut at 16 MiB: what comes before is searched, the rest is
    // not, and one warning says so.
    let dir = Dir::new();
    let filler = "the quarterly report restates the revenue of each region ".repeat(20);
    let paragraphs = std::iter::once("the escrow clause opens the report")
        .chain(std::iter::repeat_n(filler.as_str(), 16_000))
        .chain(std::iter::once(
            "the appendix ends with the indemnity clause",
        ));
    dir.write("big.docx", crate::harness::docx(paragraphs));
    let out = run_within(&dir, &["\"escrow clause\"", "."], Duration::from_secs(120));
    out.code(0)
        .stdout_has("1:\tthe escrow clause opens the report")
        .stderr_has("kgrep: big.docx: only its first 16 MiB of text are searched");
    let end = run_within(
        &dir,
        &["\"indemnity clause\"", "."],
        Duration::from_secs(120),
    );
    end.code(1)
        .stderr_has("only its first 16 MiB of text are searched");
}

#[test]
fn a_large_text_file_is_scored_as_it_streams_and_printed_hollow() {
    // Issue 28: a natural-language search loaded a whole file to score its
    // lines (a 1 GB log cost 1 GB of memory). A file over 16 MiB is now
    // scored as it streams, and loaded for printing with only the lines near
    // its ranked ones: the lines printed, their numbers and their context
    // are the file's.
    let dir = Dir::new();
    let filler = "2024-05-01T12:00:00Z INFO worker flushed the queue and committed the shard\n";
    let mut text = String::with_capacity(21 << 20);
    let mut needles = Vec::new();
    let mut n = 0;
    while text.len() < 20 << 20 {
        n += 1;
        if n % 70_000 == 0 {
            text.push_str("2024-05-03T04:05:06Z ERROR pool: connection pool exhausted, waiting\n");
            needles.push(n);
        } else {
            text.push_str(filler);
        }
    }
    dir.write("app.log", &text);
    let out = run_within(
        &dir,
        &["-v", "-C", "1", "connection pool exhausted", "."],
        Duration::from_secs(120),
    );
    out.code(0)
        .stderr_has("second pass: app.log: ")
        .stderr_has("bytes, scored as it streamed: ");
    let first = needles[0];
    out.stdout_has(&format!(
        "{first}:\t2024-05-03T04:05:06Z ERROR pool: connection pool exhausted, waiting\n"
    ))
    .stdout_has(&format!("{}-\t{filler}", first - 1))
    .stdout_has(&format!("{}-\t{filler}", first + 1));
    // Every printed line is that line of the file.
    let lines: Vec<&str> = text.split('\n').collect();
    for line in out.stdout.lines().skip(1).filter(|l| *l != "--") {
        let (number, shown) = line.split_once('\t').unwrap();
        let number: usize = number.trim_end_matches([':', '-']).parse().unwrap();
        assert_eq!(lines[number - 1], shown, "line {number}");
    }
}

/// `--max-lines 0` asks for every line: a streamed file whose matching
/// lines pass the cap kept for ranking (`rank::natural::MAX_STREAMED_LINES`)
/// says how many were left out, and how to print them all; the default cap
/// prints the best lines and has nothing to say.
#[test]
fn every_line_asked_of_a_streamed_file_past_the_cap_says_what_was_left_out() {
    let dir = Dir::new();
    let mut text = String::with_capacity(18 << 20);
    let mut n = 0;
    while text.len() < 17 << 20 {
        n += 1;
        text.push_str(&format!(
            "{n:08} retry attempt failed for the job, with padding to make the file large\n"
        ));
    }
    dir.write("big.log", &text);
    let every = run_within(
        &dir,
        &["--max-lines", "0", "retry attempt", "."],
        Duration::from_secs(120),
    );
    every.code(0).stderr_has(&format!(
        "kgrep: big.log: {} matching lines past the first 100000 of this 17 MB file \
         were not ranked or printed (too many to hold); an exact query \
         (kgrep '\"…\"' or -F) prints every one\n",
        n - 100_000
    ));
    assert_eq!(every.stdout.matches(":\t").count(), 100_000);
    let best = run_within(&dir, &["retry attempt", "."], Duration::from_secs(120));
    best.code(0).stderr_lacks("not ranked or printed");
    let exact = run_within(
        &dir,
        &["-c", "\"retry attempt\"", "."],
        Duration::from_secs(120),
    );
    exact.code(0).stdout_is(&format!("./big.log:{n}\n"));
}

#[test]
fn a_planted_megabyte_word_is_not_stemmed_for_the_model() {
    // A file near the query's hits holding one word of a megabyte of `y`:
    // its words are the vocabulary an expansion sends, and each was stemmed
    // (`thesaurus::stem`), which is quadratic in a word's length: most of a
    // minute for this one. A word past `MAX_STEMMED_BYTES` is its own stem.
    let dir = Dir::new();
    dir.write(
        "src/settings.py",
        format!(
            "# where the configuration is read {}
CONFIG_PATH = 'app.toml'
",
            "y".repeat(1_000_000)
        ),
    );
    dir.use_model("http://127.0.0.1:9/v1", "");
    let args = [
        "--dry-run",
        "--no-learn",
        "where is the configuration gronked",
        ".",
    ];
    let mut cmd = dir.cmd();
    cmd.env("KGREP_LLM", "always")
        .args(args)
        .timeout(Duration::from_secs(20));
    let out = crate::harness::finish(&mut cmd, &args, dir.path());
    out.code(0)
        .stdout_has("# 1. expansion: the concepts behind the query")
        .stdout_has("Vocabulary: ");
}
