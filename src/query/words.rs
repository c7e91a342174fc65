//! Text into words: runs of letters and digits, identifiers split into their
//! parts on case and letter/digit changes. The one splitter of the crate:
//! query terms, file and symbol names, and credential names (`llm::redact`)
//! all split through it.
//!
//! Owns splitting only. Does not own which words matter (stop words,
//! stemming: `query`).

/// Splits text into lowercase words: runs of letters and digits, with identifiers
/// split into their parts (`parseJwt` → parse, jwt; `HTTPServer` → http, server;
/// `max_redirects` → max, redirects).
pub fn words(text: &str) -> Vec<String> {
    typed_words(text).iter().map(|w| w.to_lowercase()).collect()
}

/// `words`, keeping the case the words were typed in.
pub fn typed_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in text.split(|c: char| !c.is_alphanumeric()) {
        if token.is_empty() {
            continue;
        }
        out.extend(split_identifier(token).into_iter().map(str::to_string));
    }
    out
}

/// Splits one alphanumeric token on case changes and letter/digit changes.
pub fn split_identifier(token: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = token.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (pos, c) = chars[i];
        let prev = chars[i - 1].1;
        let next = chars.get(i + 1).map(|&(_, n)| n);
        let lower_to_upper = prev.is_lowercase() && c.is_uppercase();
        let acronym_end =
            prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
        let digit_edge = prev.is_ascii_digit() != c.is_ascii_digit();
        if lower_to_upper || acronym_end || digit_edge {
            parts.push(&token[start..pos]);
            start = pos;
        }
    }
    parts.push(&token[start..]);
    parts
}
