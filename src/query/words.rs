//! Text into words: runs of letters and digits, identifiers split into their
//! parts on case and letter/digit changes, and runs of CJK text apart from
//! the Latin text around them (`客户端IP` → 客户端, IP). The one splitter of the crate:
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

/// The CJK scripts, each written without spaces between its words: a change
/// of script (or to or from Latin) ends a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cjk {
    Han,
    Hiragana,
    Katakana,
    Hangul,
}

/// The CJK script of a character, `None` for any other.
pub fn cjk_script(c: char) -> Option<Cjk> {
    match u32::from(c) {
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F => Some(Cjk::Han),
        0x3041..=0x309F => Some(Cjk::Hiragana),
        0x30A0..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9D => Some(Cjk::Katakana),
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => Some(Cjk::Hangul),
        _ => None,
    }
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

/// Splits one alphanumeric token on case changes, letter/digit changes and
/// script changes into or out of CJK.
pub fn split_identifier(token: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for_each_part(token, |part| parts.push(part));
    parts
}

/// The names a query types as code, lowercase, each once: the segments of
/// its identifier-shaped tokens (`Arg::validator` gives `arg` and
/// `validator`, `syncIndexes` gives `syncindexes`, `` `ADDRESS_FAMILY` ``
/// gives `address_family`). A word only capitalised (`Windows`) is not one,
/// nor, when `ask` says the query is a question, an acronym (`JSON`).
pub fn typed_names(raw: &str, ask: super::Ask) -> Vec<String> {
    // In a question an acronym is a word of its prose ("isn't valid JSON"),
    // not a name typed from the code.
    let question = ask != super::Ask::Other;
    let mut out: Vec<String> = Vec::new();
    for token in raw.split_whitespace() {
        let token = token.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
        let quoted_code = super::classify::is_identifier_like(token);
        let acronym = token.chars().all(|c| c.is_ascii_uppercase());
        if !quoted_code || question && acronym {
            continue;
        }
        for segment in token.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            let name = segment.trim_matches('_').to_lowercase();
            if name.len() >= 2 && name.chars().any(char::is_alphabetic) && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
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
            // An acronym's plural (`URLs`, `IDs`, `APIs`) is one word: its
            // `s` ends the token or a capital follows it (`URLsToFetch`).
            let plural = next == Some('s')
                && token[pos + c.len_utf8() + 1..]
                    .chars()
                    .next()
                    .is_none_or(|n| !n.is_lowercase());
            let acronym_end = prev.is_uppercase()
                && c.is_uppercase()
                && next.is_some_and(char::is_lowercase)
                && !plural;
            let digit_edge = prev.is_ascii_digit() != c.is_ascii_digit();
            let script_edge = cjk_script(prev) != cjk_script(c);
            if lower_to_upper || acronym_end || digit_edge || script_edge {
                f(&token[start..pos]);
                start = pos;
            }
        }
        prev = Some(c);
    }
    f(&token[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_types_names_not_acronyms() {
        let names = |q: &str| typed_names(q, crate::query::Ask::of(q));
        assert_eq!(
            names("What happens when the body isn't valid JSON in parseBody?"),
            ["parsebody"]
        );
        assert_eq!(names("where is MAX_RETRIES set"), ["max_retries"]);
        // A commit subject's capitals may well name the code.
        assert_eq!(names("fix JSON body parsing"), ["json"]);
    }

    #[test]
    fn an_acronyms_plural_is_one_word() {
        assert_eq!(split_identifier("URLs"), ["URLs"]);
        assert_eq!(split_identifier("getIDs"), ["get", "IDs"]);
        assert_eq!(split_identifier("URLsToFetch"), ["URLs", "To", "Fetch"]);
        // A capital before a word is still split off the acronym.
        assert_eq!(split_identifier("HTTPServer"), ["HTTP", "Server"]);
        assert_eq!(words("the APIs"), ["the", "apis"]);
    }

    #[test]
    fn cjk_runs_split_from_latin_and_from_each_other() {
        assert_eq!(
            typed_words("客户端IP在哪里计算"),
            ["客户端", "IP", "在哪里计算"]
        );
        assert_eq!(
            words("getクライアント名前"),
            ["get", "クライアント", "名前"]
        );
        assert_eq!(words("parseJwt"), ["parse", "jwt"]);
        assert_eq!(cjk_script('a'), None);
        assert_eq!(cjk_script('한'), Some(Cjk::Hangul));
    }
}
