//! A thesaurus synonym written as an identifier (`register_blueprint`,
//! `registerBlueprint`, `RegisterBlueprint`, `register-blueprint`,
//! `std::fs::read`) matches that identifier in code in all its spellings, from
//! every layer: a `--thesaurus` JSON file, an imported Markdown folder, the
//! learned file. Each project defines the identifier in Rust, Python, Go and
//! JavaScript, in each language's own spelling, and the query names only the
//! concept, a word no file holds.

use crate::harness::Dir;

/// The four definitions, one per language, and unrelated files.
fn project() -> Dir {
    let d = Dir::new();
    d.write(
        "rust/app.rs",
        "pub struct App;\n\nimpl App {\n    pub fn register_blueprint(&mut self, bp: Blueprint) {\n        self.bps.push(bp);\n    }\n}\n",
    );
    d.write(
        "python/app.py",
        "class App:\n    def register_blueprint(self, bp):\n        self.bps.append(bp)\n",
    );
    d.write(
        "go/app.go",
        "package app\n\nfunc (a *App) RegisterBlueprint(bp Blueprint) {\n\ta.bps = append(a.bps, bp)\n}\n",
    );
    d.write(
        "js/app.js",
        "export class App {\n  registerBlueprint(bp) {\n    this.bps.push(bp);\n  }\n}\n",
    );
    for name in ["cache", "config", "queue", "timer"] {
        d.write(
            &format!("misc/{name}.py"),
            format!("def {name}_open(handle):\n    return handle\n"),
        );
    }
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    d
}

/// The definition lines each language's file must show.
const DEFINITIONS: &[(&str, &str)] = &[
    (
        "./rust/app.rs",
        "pub fn register_blueprint(&mut self, bp: Blueprint) {",
    ),
    ("./python/app.py", "def register_blueprint(self, bp):"),
    (
        "./go/app.go",
        "func (a *App) RegisterBlueprint(bp Blueprint) {",
    ),
    ("./js/app.js", "registerBlueprint(bp) {"),
];

const QUERY: &str = "where is zlorp done";

/// Asserts that every language's definition is printed under its file.
fn finds_every_spelling(d: &Dir, args: &[&str]) {
    let run = d.run(&[args, &["--max-lines", "0", QUERY, "."]].concat());
    run.code(0);
    for (file, line) in DEFINITIONS {
        assert!(
            run.headings().iter().any(|h| h == file),
            "{file} not printed\n{}",
            run.describe
        );
        run.stdout_has(line);
    }
    run.stdout_lacks("misc/");
}

fn terraphim(synonym: &str) -> String {
    format!(
        "{{\"name\": \"mine\", \"data\": {{\"zlorp\": {{\"id\": 1, \"nterm\": \"zlorp\"}}, \"{synonym}\": {{\"id\": 1, \"nterm\": \"zlorp\"}}}}}}"
    )
}

#[test]
fn a_json_thesaurus_synonym_in_each_spelling() {
    for spelling in [
        "register_blueprint",
        "registerBlueprint",
        "RegisterBlueprint",
        "register-blueprint",
        "REGISTER_BLUEPRINT",
    ] {
        let d = project();
        d.write("zlorp.json", terraphim(spelling));
        finds_every_spelling(&d, &["--thesaurus", "zlorp.json"]);
    }
}

#[test]
fn a_markdown_folder_synonym() {
    let d = project();
    d.write(
        "kg/zlorp.md",
        "# Zlorp\n\nsynonyms:: registerBlueprint, register_blueprint\n",
    );
    finds_every_spelling(&d, &["--thesaurus", "kg"]);
    // Imported into the learned file, it still finds every spelling.
    let d = project();
    d.write("kg/zlorp.md", "# Zlorp\n\nsynonyms:: RegisterBlueprint\n");
    d.run(&["--thesaurus-import", "kg"]).code(0);
    finds_every_spelling(&d, &[]);
}

#[test]
fn a_learned_file_synonym() {
    let d = project();
    let learned = d.learned_path();
    std::fs::create_dir_all(learned.parent().unwrap()).unwrap();
    std::fs::write(&learned, terraphim("registerBlueprint")).unwrap();
    finds_every_spelling(&d, &[]);
}

#[test]
fn a_path_synonym_matches_the_path() {
    let d = Dir::new();
    d.write(
        "src/load.rs",
        "pub fn load(path: &Path) -> Vec<u8> {\n    std::fs::read(path).unwrap_or_default()\n}\n",
    );
    d.write(
        "src/other.rs",
        "pub fn other() {\n    let fs = 1;\n    let read = fs + 1;\n}\n",
    );
    d.write("zlorp.json", terraphim("std::fs::read"));
    let run = d.run(&["--thesaurus", "zlorp.json", QUERY, "src"]);
    run.code(0);
    assert_eq!(
        run.headings(),
        vec!["./src/load.rs".to_string()],
        "{}",
        run.describe
    );
    run.stdout_has("std::fs::read(path)");
}
