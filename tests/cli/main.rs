//! The one integration-test binary: drives the real `kgrep` in temp dirs.
#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod harness;

mod api_base;
mod bad_input;
mod big_trees;
mod broken_pipe;
mod budget;
mod color;
mod contract;
mod contract_modes;
mod defaults;
mod definitions;
mod documents;
mod explain;
mod fail_closed;
mod flags;
mod generated;
mod identifier_synonyms;
mod imports;
mod input;
mod json;
mod layout;
mod learning;
mod limits;
mod listing;
mod llm_client;
mod long_lines;
mod matching;
mod max_count;
mod max_lines;
mod mcp;
mod mock_llm;
mod model_faults;
mod model_stage;
mod model_text;
mod oracle;
mod outbound;
mod output;
mod planted_files;
mod query_reading;
mod ranking;
mod readme;
mod reads;
mod rg_flags;
mod run_together;
mod schema;
mod settled;
mod terminal;
mod walk_flags;
mod wordless;

/// Every `.rs` file in this folder must be listed above, or its tests never run.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "main" {
                assert!(
                    main.contains(&format!("mod {module};")),
                    "tests/cli/{name} is not a module of main.rs"
                );
            }
        }
    }
}
