//! Model server URLs, through `http::Uri` (compiled in with ureq): the one
//! home of checking a base URL, of building a request URL from it, and of the
//! form a URL is shown in.
//!
//! - A base is `http(s)://host[:port][/path][?query]`; credentials
//!   (`user:password@`) are stripped and never sent or shown.
//! - A request URL is the base's path, then the endpoint's path, then the
//!   base's query string, kept as it was (`…/v1/chat/completions?api-version=…`:
//!   Azure-style endpoints carry their version, and some servers their key,
//!   there).
//! - A URL is shown (messages, `--dry-run`) without credentials and with
//!   every query value elided: a key passed as `?key=…` never reaches the
//!   screen. The caller elides the API key itself wherever else it appears
//!   (`Endpoint::display_base`).
//!
//! Does not decide which base a model uses (`provider`) and does no I/O.

use std::net::IpAddr;

use ureq::http::Uri;

use super::redact::REDACTED;

/// A base URL, parsed and without credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    /// `http` or `https`, lower-cased.
    scheme: String,
    /// `host[:port]`, as written (no `user:password@`).
    authority: String,
    /// The lower-cased host, brackets removed from an IPv6 address.
    host: String,
    /// The path, without a trailing `/` (empty for none).
    pub path: String,
    /// The query string without its `?`, if any.
    query: Option<String>,
}

impl Base {
    /// Parses an `http(s)://` URL with a host; `None` otherwise.
    pub fn parse(url: &str) -> Option<Base> {
        let uri: Uri = url.trim().parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let authority = uri.authority()?;
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        if host.is_empty() {
            return None;
        }
        let host_port = match authority.port() {
            Some(port) => format!("{}:{}", authority.host(), port.as_str()),
            None => authority.host().to_string(),
        };
        Some(Base {
            scheme,
            authority: host_port,
            host,
            path: uri.path().trim_end_matches('/').to_string(),
            query: uri.query().map(str::to_string),
        })
    }

    /// The lower-cased host.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The URL of `endpoint_path` under this base: the path appended to the
    /// base's path, the query string kept after it.
    pub fn join(&self, endpoint_path: &str) -> String {
        let mut url = format!(
            "{}://{}{}{endpoint_path}",
            self.scheme, self.authority, self.path
        );
        if let Some(query) = &self.query {
            url.push('?');
            url.push_str(query);
        }
        url
    }

    /// The base as text (no credentials; query kept): what is stored.
    pub fn to_text(&self) -> String {
        self.join("")
    }

    /// The base as shown: no credentials, every query value elided.
    pub fn shown(&self) -> String {
        Base {
            query: self.query.as_deref().map(elide_values),
            ..self.clone()
        }
        .to_text()
    }
}

/// `name=value&…` with every value replaced by [`REDACTED`].
fn elide_values(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) => format!("{name}={REDACTED}"),
            None if pair.is_empty() => String::new(),
            None => REDACTED.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// Any URL text as it may be shown: parsed, without credentials and query
/// values; text that does not parse loses everything from `?` on and any
/// `user:password@`.
pub fn shown(url: &str) -> String {
    if let Some(base) = Base::parse(url) {
        return base.shown();
    }
    let cut = url.split(['?', '#']).next().unwrap_or("");
    let Some((scheme, rest)) = cut.split_once("://") else {
        return cut.to_string();
    };
    let end = rest.find('/').unwrap_or(rest.len());
    match rest[..end].rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://{host}{}", &rest[end..]),
        None => cut.to_string(),
    }
}

/// The query values of a URL (at least `min` characters long): what a
/// message quoting the URL must not show.
pub fn query_values(url: &str, min: usize) -> Vec<String> {
    let Some(query) = Base::parse(url).and_then(|b| b.query) else {
        return Vec::new();
    };
    query
        .split('&')
        .filter_map(|pair| pair.split_once('=').map(|(_, v)| v.to_string()))
        .filter(|v| v.len() >= min)
        .collect()
}

/// The lower-cased host of an `http(s)://` URL (brackets removed from IPv6).
pub fn host_of(url: &str) -> Option<String> {
    Base::parse(url).map(|b| b.host)
}

/// Loopback addresses, `localhost` and `*.localhost` (RFC 6761).
pub fn is_local_host(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_path_goes_before_the_query() {
        let base =
            Base::parse("https://x.openai.azure.com/openai/v1?api-version=2024-02-01").unwrap();
        assert_eq!(
            base.join("/chat/completions"),
            "https://x.openai.azure.com/openai/v1/chat/completions?api-version=2024-02-01"
        );
        let base = Base::parse("http://127.0.0.1:8080/v1/").unwrap();
        assert_eq!(base.join("/messages"), "http://127.0.0.1:8080/v1/messages");
        let bare = Base::parse("http://localhost:11434").unwrap();
        assert_eq!(bare.path, "");
        assert_eq!(bare.join("/v1"), "http://localhost:11434/v1");
    }

    #[test]
    fn credentials_are_stripped_and_query_values_never_shown() {
        let base =
            Base::parse("https://User:pw@API.example.com:8443/v1?key=SECRET123&v=2").unwrap();
        assert_eq!(base.host(), "api.example.com");
        assert_eq!(
            base.to_text(),
            "https://API.example.com:8443/v1?key=SECRET123&v=2"
        );
        assert_eq!(
            base.shown(),
            "https://API.example.com:8443/v1?key=[REDACTED]&v=[REDACTED]"
        );
        assert_eq!(
            shown("https://u:p@h.example/v1/chat/completions?key=abc"),
            "https://h.example/v1/chat/completions?key=[REDACTED]"
        );
        assert_eq!(shown("not a url ?key=abc"), "not a url ");
        assert_eq!(shown("ftp://u:p@h/x?k=v"), "ftp://h/x");
        assert_eq!(
            query_values("http://h/v1?key=SECRET123&v=2", 4),
            vec!["SECRET123".to_string()]
        );
    }

    #[test]
    fn only_http_urls_with_a_host_parse() {
        for bad in [
            "ftp://127.0.0.1/",
            "127.0.0.1:8080",
            "http:///v1",
            "file:///etc/passwd",
            "",
        ] {
            assert!(Base::parse(bad).is_none(), "{bad}");
        }
        assert_eq!(host_of("http://[::1]:80/x").as_deref(), Some("::1"));
        assert_eq!(
            host_of("HTTPS://Example.COM").as_deref(),
            Some("example.com")
        );
    }

    #[test]
    fn local_hosts() {
        assert!(is_local_host("127.0.0.1") && is_local_host("::1") && is_local_host("a.localhost"));
        assert!(!is_local_host("localhost.example.com") && !is_local_host("10.0.0.1"));
    }
}
