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
    for_each_word(text, |part| out.push(part.to_string()));
    out
}

/// Calls `f` with each word of `text` as typed, in order: what
/// [`typed_words`] lists, without a `String` per word (the typo vocabulary
/// reads megabytes of text through it).
pub fn for_each_word<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    for token in text.split(|c: char| !c.is_alphanumeric()) {
        if !token.is_empty() {
            for_each_part(token, &mut f);
        }
    }
}

/// Splits one alphanumeric token on case changes and letter/digit changes.
pub fn split_identifier(token: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for_each_part(token, |part| parts.push(part));
    parts
}

/// Calls `f` with each part of one alphanumeric token ([`split_identifier`]).
fn for_each_part<'a>(token: &'a str, mut f: impl FnMut(&'a str)) {
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = token.char_indices().peekable();
    while let Some((pos, c)) = chars.next() {
        if let Some(prev) = prev {
            let next = chars.peek().map(|&(_, n)| n);
            let lower_to_upper = prev.is_lowercase() && c.is_uppercase();
            let acronym_end =
                prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
            let digit_edge = prev.is_ascii_digit() != c.is_ascii_digit();
            if lower_to_upper || acronym_end || digit_edge {
                f(&token[start..pos]);
                start = pos;
            }
        }
        prev = Some(c);
    }
    f(&token[start..]);
}
