//! `--color` and `NO_COLOR` on a pipe: no escapes unless asked for, and then
//! ripgrep's palette around exactly the bytes a colourless run prints.

use crate::harness::Dir;

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

const MAGENTA: &str = "\x1b[35m";
const GREEN: &str = "\x1b[32m";
const MATCH: &str = "\x1b[1m\x1b[31m";
const RESET: &str = "\x1b[0m";

/// The output with every SGR sequence removed.
fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let end = tail.find('m').map_or(tail.len(), |m| m + 1);
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn pipes_get_no_escapes_by_default_or_with_never() {
    let d = corpus();
    let plain = d.run_devnull(&["MAX_RETRIES"]);
    plain.code(0).stdout_lacks("\x1b");
    let never = d.run_devnull(&["--color", "never", "MAX_RETRIES"]);
    never.code(0).stdout_is(&plain.stdout);
}

#[test]
fn color_always_paints_a_pipe_with_ripgreps_palette() {
    let d = corpus();
    let plain = d.run_devnull(&["MAX_RETRIES"]);
    let run = d.run_devnull(&["--color", "always", "MAX_RETRIES"]);
    run.code(0)
        .stdout_has(&format!("{MAGENTA}./src/net/client.rs{RESET}\n"))
        .stdout_has(&format!(
            "{GREEN}6{RESET}:\tpub const {MATCH}MAX_RETRIES{RESET}: u32 = 5;\n"
        ));
    assert_eq!(strip_sgr(&run.stdout), plain.stdout, "{}", run.describe);
}

#[test]
fn natural_language_colours_the_query_terms() {
    let d = corpus();
    let run = d.run_devnull(&["--color", "always", "parse jwt"]);
    run.code(0).stdout_has(&format!(
        "def {MATCH}parse{RESET}_{MATCH}jwt{RESET}(token):"
    ));
}

#[test]
fn no_color_is_overridden_only_by_an_explicit_always() {
    let d = corpus();
    let run_with = |args: &[&str]| {
        let mut cmd = d.cmd();
        cmd.env("NO_COLOR", "1").args(args);
        crate::harness::finish(&mut cmd, args, d.path())
    };
    run_with(&["MAX_RETRIES", "."]).code(0).stdout_lacks("\x1b");
    run_with(&["--color", "auto", "MAX_RETRIES", "."])
        .code(0)
        .stdout_lacks("\x1b");
    run_with(&["--color", "always", "MAX_RETRIES", "."])
        .code(0)
        .stdout_has(MATCH);
}

#[test]
fn json_is_never_coloured() {
    let d = corpus();
    let run = d.run_devnull(&["--json", "--color", "always", "MAX_RETRIES"]);
    run.code(0).stdout_lacks("\x1b").stdout_lacks("\\u001b");
}

#[test]
fn a_bad_color_value_is_a_usage_error() {
    let d = corpus();
    d.run_devnull(&["--color", "sometimes", "MAX_RETRIES"])
        .code(2)
        .stdout_is("");
}

#[test]
fn the_answer_header_on_stderr_follows_color() {
    const CYAN: &str = "\x1b[36m";
    let d = corpus();
    let question = "where is the retry delay computed";
    let always = d.run_devnull(&["--color", "always", "--answer", question, "."]);
    always
        .code(0)
        .stderr_has(&format!("{CYAN}===== Answer ====={RESET}\n"));
    let never = d.run_devnull(&["--color", "never", "--answer", question, "."]);
    never
        .code(0)
        .stderr_has("===== Answer =====\n")
        .stderr_lacks("\x1b");
    // `auto` (the default) on a pipe: no colour.
    d.run_devnull(&["--answer", question, "."])
        .code(0)
        .stderr_lacks("\x1b");
}

/// `-p` is rg's `--color always --heading --line-number`: into a pipe it
/// prints what those flags print, and a later flag undoes its part.
#[test]
fn pretty_prints_as_color_always_with_headings_and_numbers() {
    let d = Dir::new();
    d.write("a.txt", "one retry\ntwo\n");
    let always = d
        .run(&["--color", "always", "-F", "retry", "a.txt"])
        .stdout
        .clone();
    assert!(always.contains("\x1b["), "{always}");
    d.run(&["--no-heading", "-N", "-p", "-F", "retry", "a.txt"])
        .code(0)
        .stdout_is(&always);
    let plain = d
        .run(&["--no-heading", "-F", "retry", "a.txt"])
        .stdout
        .clone();
    d.run(&[
        "-p",
        "--color",
        "never",
        "--no-heading",
        "-F",
        "retry",
        "a.txt",
    ])
    .code(0)
    .stdout_is(&plain);
}

/// `--vimgrep --color always` prints a line once per match and colours that
/// match alone on each (kgrep coloured every match of the line on each of
/// its copies), and writes colour as rg 13 does in its own formats (flat
/// lines, lists): a reset before each coloured field, the column between
/// resets too (kgrep wrote rich's `\x1b[35m…\x1b[0m`). Each expected line is
/// `rg --vimgrep --color always foo a.txt` (and with `-r XY`, and `rg
/// --no-heading -n --color always foo a.txt`, `rg -c --color always foo
/// a.txt`) byte for byte, but for the path: rg names no file when given
/// one, kgrep's `./a.txt` is coloured as rg colours a path (`rg -c --color
/// always foo a.txt b.txt`).
#[test]
fn vimgrep_colours_each_lines_own_match_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "foo bar foo baz foo\nnone\nfoo\n");
    let rg = |sgr: &str, text: &str| format!("{RESET}{sgr}{text}{RESET}");
    let path = rg(MAGENTA, "./a.txt");
    let line = |n: usize, col: usize, text: &str| {
        format!(
            "{path}:{}:{}:{text}\n",
            rg(GREEN, &n.to_string()),
            rg("", &col.to_string())
        )
    };
    let m = |text: &str| rg(MATCH, text);
    let expected = [
        line(1, 1, &format!("{} bar foo baz foo", m("foo"))),
        line(1, 9, &format!("foo bar {} baz foo", m("foo"))),
        line(1, 17, &format!("foo bar foo baz {}", m("foo"))),
        line(3, 1, &m("foo")),
    ]
    .concat();
    d.run(&["--vimgrep", "--color", "always", "foo", "a.txt"])
        .code(0)
        .stdout_is(&expected);
    let replaced = [
        line(1, 1, &format!("{} bar XY baz XY", m("XY"))),
        line(1, 8, &format!("XY bar {} baz XY", m("XY"))),
        line(1, 15, &format!("XY bar XY baz {}", m("XY"))),
        line(3, 1, &m("XY")),
    ]
    .concat();
    d.run(&[
        "--vimgrep",
        "--color",
        "always",
        "--replace",
        "XY",
        "foo",
        "a.txt",
    ])
    .code(0)
    .stdout_is(&replaced);
    // Without --vimgrep a line prints once, every match coloured.
    d.run(&["--no-heading", "--color", "always", "foo", "a.txt"])
        .code(0)
        .stdout_is(&format!(
            "{path}:{}:{} bar {} baz {}\n{path}:{}:{}\n",
            rg(GREEN, "1"),
            m("foo"),
            m("foo"),
            m("foo"),
            rg(GREEN, "3"),
            m("foo")
        ));
    d.run(&["-c", "--color", "always", "foo", "a.txt"])
        .code(0)
        .stdout_is(&format!("{path}:2\n"));
    // rlmgrep's layout keeps rich's colours.
    d.run(&["--color", "always", "foo", "a.txt"])
        .code(0)
        .stdout_has(&format!(
            "{MAGENTA}./a.txt{RESET}\n{GREEN}1{RESET}:\t{MATCH}foo{RESET} bar"
        ));
}

/// Matches that touch (`fo+` twice in `foofoo`) are painted as one: rg 13
/// starts the colour once and resets it once; kgrep reset and restarted it
/// between them. The same for their replacements.
#[test]
fn touching_matches_are_painted_once_as_rg() {
    let d = Dir::new();
    d.write("r.txt", "foofoo barfoo foobar\n");
    // `rg -n -H --no-heading --color always 'fo+' .`
    d.run(&["--no-heading", "--color", "always", "fo+", "."])
        .code(0)
        .stdout_is(
            "\x1b[0m\x1b[35m./r.txt\x1b[0m:\x1b[0m\x1b[32m1\x1b[0m:\
             \x1b[0m\x1b[1m\x1b[31mfoofoo\x1b[0m bar\x1b[0m\x1b[1m\x1b[31mfoo\x1b[0m \
             \x1b[0m\x1b[1m\x1b[31mfoo\x1b[0mbar\n",
        );
    // `rg -n -H --no-heading --color always --replace R 'fo+' .`
    d.run(&[
        "--no-heading",
        "--color",
        "always",
        "--replace",
        "R",
        "fo+",
        ".",
    ])
    .code(0)
    .stdout_is(
        "\x1b[0m\x1b[35m./r.txt\x1b[0m:\x1b[0m\x1b[32m1\x1b[0m:\
             \x1b[0m\x1b[1m\x1b[31mRR\x1b[0m bar\x1b[0m\x1b[1m\x1b[31mR\x1b[0m \
             \x1b[0m\x1b[1m\x1b[31mR\x1b[0mbar\n",
    );
}
