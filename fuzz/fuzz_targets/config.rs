//! The config reader on arbitrary text: never panics, and its error is one line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(err) = kgrep::config::parse(&text) {
        let shown = format!("{err:#}");
        assert!(!shown.contains('\n'), "multi-line config error: {shown:?}");
    }
});
