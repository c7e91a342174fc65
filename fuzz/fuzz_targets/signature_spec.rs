//! `--signature` specs of arbitrary text: never panics; a spec that parses yields
//! a JSON schema and validates replies without panicking.
#![no_main]

use kgrep::signature;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(spec) = signature::parse(&text) else {
        return;
    };
    let _ = signature::json_schema(&spec);
    let _ = signature::response_format(&spec);
    let samples = [
        json!(null),
        json!("x"),
        json!(1),
        json!(1.5),
        json!(true),
        json!([1, "a"]),
        json!({"k": [null]}),
    ];
    let mut reply = Map::new();
    for (i, field) in spec.fields().iter().enumerate() {
        reply.insert(field.name.clone(), samples[i % samples.len()].clone());
    }
    let _ = signature::validate(&spec, &reply);
    let _ = signature::validate(&spec, &Map::<String, Value>::new());
});
