//! A model's reply of arbitrary text: the provider envelope for every protocol,
//! then the reply object inside it, with and without an API key to remove.
//! Never panics.
#![no_main]

use kgrep::llm::{parse_reply, wire, Protocol};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_reply(&text);
    for protocol in [
        Protocol::ChatCompletions,
        Protocol::Responses,
        Protocol::AnthropicMessages,
    ] {
        // With and without a key to remove from an error object's message.
        for key in [None, Some("sk-fuzz-key")] {
            if let Ok(completion) = wire::parse_completion(protocol, &text, key) {
                let _ = parse_reply(&completion.text);
            }
        }
    }
});
