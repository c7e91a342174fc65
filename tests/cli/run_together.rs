//! An identifier typed in lowercase with its separators left out
//! (`shouldbindjson`, `loadfilesystem`) finds the identifier the code spells
//! (`ShouldBindJSON`, `load_file_system`), and a word one edit from an
//! identifier's parts run together (`regexps` for `RegExp`) finds it too. The
//! query word is in no file, so without this it would match nothing.

use crate::harness::Dir;

fn project() -> Dir {
    let d = Dir::new();
    d.write(
        "binding/context.go",
        "package binding\n\n// Decode the request body.\nfunc (c *Context) ShouldBindJSON(obj any) error {\n\treturn c.ShouldBindWith(obj, JSON)\n}\n\nfunc (c *Context) Query(key string) string {\n\treturn c.query[key]\n}\n",
    );
    d.write(
        "loader/fs.py",
        "import os\n\n\ndef load_file_system(root):\n    return os.listdir(root)\n\n\ndef unrelated():\n    return 1\n",
    );
    d.write(
        "pattern/compile.js",
        "export function compile(source) {\n  return new RegExp(source, 'u');\n}\n\nexport function other() {\n  return 2;\n}\n",
    );
    d.write(
        "README.md",
        "# demo\n\nA small project: binding, loader and pattern.\n",
    );
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    d
}

#[test]
fn a_lowercase_run_together_identifier_finds_its_definition() {
    let d = project();
    let run = d.run(&["-n", "where is shouldbindjson defined", "."]);
    run.code(0)
        .stdout_has("4:\tfunc (c *Context) ShouldBindJSON(obj any) error {");
    assert_eq!(run.headings(), ["./binding/context.go"], "{}", run.describe);
    let run = d.run(&["-n", "-v", "how does loadfilesystem list the root", "."]);
    run.code(0)
        .stderr_has("searching the identifier load_file_system it spells")
        .stdout_has("4:\tdef load_file_system(root):");
    run.first_heading_is("./loader/fs.py");
}

#[test]
fn a_word_one_edit_from_an_identifier_finds_it() {
    let d = project();
    let run = d.run(&[
        "-n",
        "-v",
        "where are regexps compiled from the source",
        ".",
    ]);
    run.code(0)
        .stderr_has("searching the identifier RegExp it spells")
        .stdout_has("2:\t  return new RegExp(source, 'u');");
    run.first_heading_is("./pattern/compile.js");
}

#[test]
fn a_word_the_corpus_has_is_not_read_as_an_identifier() {
    let d = project();
    // `query` is a word of the corpus: no identifier lookup, no typo line.
    d.run(&["-v", "where is the query read", "."])
        .code(0)
        .stderr_lacks("searching the identifier");
}

/// A one-word query in no file, searched as the identifier it spells run
/// together, prints that identifier's best places only, in spellings the
/// user never typed: one stderr line says what was searched and the regex
/// that prints every spelling, as the note for a word the files hold does;
/// never on stdout, never with `-q`, and the exit code is the search's.
#[test]
fn a_one_word_run_together_query_says_what_it_searched() {
    let d = Dir::new();
    d.write(
        "src/fmt.py",
        "class CSVFormat:\n    pass\n\n\ndef load(fmt: CSVFormat):\n    return fmt\n",
    );
    d.write("src/conf.py", "csv_format = \"x\"\nprint(csv_format)\n");
    d.write("README.txt", "Use the csv-format option.\n");
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    let note = "kgrep: \"csvformat\" is in no file: it was searched as the identifier it spells";
    let run = d.run(&["csvformat", "."]);
    run.code(0)
        .stderr_has(note)
        .stderr_has("pass a regex (kgrep -i 'csv[-_]?format')\n")
        .stdout_lacks("is in no file");
    assert_eq!(
        run.stderr.matches("is in no file").count(),
        1,
        "{}",
        run.describe
    );
    d.run(&["-q", "csvformat", "."])
        .code(0)
        .stderr_lacks("is in no file");
    // The regex it names prints every line of every spelling.
    d.run(&["-i", "csv[-_]?format", "."])
        .code(0)
        .stdout_has("2:\tprint(csv_format)")
        .stdout_has("1:\tclass CSVFormat:")
        .stdout_has("1:\tUse the csv-format option.");
    // A word a file holds as typed gets the other note, not this one.
    d.write("docs.txt", "the csvformat option\n");
    d.run(&["csvformat", "."]).stderr_lacks("is in no file");
}
