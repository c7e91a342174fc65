//! Blocking HTTP to the model with `ureq` 3: timeouts, retries, the call budget,
//! token accounting, a bounded reply size, and the protocol fallbacks.
//!
//! Owns every byte that crosses the network: [`Client::complete`] sends one
//! logical call (counted once against the shared [`Meter`], whatever retries or
//! fallbacks it takes) and returns the parsed [`Reply`] or a typed [`LlmError`].
//! The fallbacks: a Responses endpoint that does not exist (404/405) switches
//! this client to chat completions for the rest of the run; a 400 that rejects
//! `response_format` switches JSON mode off, once. Retries: 429 and 5xx, up to
//! [`ClientOptions::max_retries`] times, waiting `Retry-After` (seconds or an
//! HTTP date) or an exponential backoff, never longer than
//! [`ClientOptions::max_wait`]. The meter's deadline (one per query) cuts
//! every exchange and wait short: no call, retry or wait ends after it.
//! Redirects are not followed (a key is never
//! re-sent to another host); local servers bypass any proxy. Names under
//! `.invalid` fail at once without a DNS query (RFC 6761).
//!
//! Why ureq 3 rather than 2: it is the maintained major version, its errors
//! name which timeout fired (connect vs. response vs. body), and its body reader
//! has a built-in size limit, so a 10 MB reply is refused while reading, never
//! buffered whole.

use std::fmt;
use std::io::ErrorKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use super::address::host_of;
use super::prompt::{self, ExpansionRequest, Prompt, SelectionRequest};
use super::provider::{ApiKey, Endpoint, Protocol, DEFAULT_CALL_TIMEOUT};
use super::redact::one_line;
use super::reply::{parse_reply, Reply, ReplyError};
use super::wire::{self, WireRequest};
use super::{Llm, LlmError, Meter, Usage};

/// Time to resolve, connect and finish TLS: a reachable server does it in well
/// under a second; a dead one should not hold a search up for long.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Retries after a 429 or 5xx (so at most three attempts per call).
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// First backoff when the server gives no `Retry-After`; doubles per retry.
pub const DEFAULT_BACKOFF: Duration = Duration::from_millis(500);
/// Longest wait honoured between attempts: a CLI user waits seconds, not
/// minutes; a longer `Retry-After` ends the call as rate limited.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(20);
/// Largest reply body read. A JSON reply with a few hundred claims is tens of
/// kilobytes; anything near this is a broken or hostile server.
pub const MAX_REPLY_BYTES: u64 = 4 * 1024 * 1024;

/// Client limits; [`Default`] gives the named constants above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientOptions {
    pub connect_timeout: Duration,
    pub call_timeout: Duration,
    pub max_retries: u32,
    pub backoff: Duration,
    pub max_wait: Duration,
    pub max_reply_bytes: u64,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            max_retries: DEFAULT_MAX_RETRIES,
            backoff: DEFAULT_BACKOFF,
            max_wait: MAX_RETRY_WAIT,
            max_reply_bytes: MAX_REPLY_BYTES,
        }
    }
}

/// A model client for one endpoint. Cheap to share by reference; the call
/// budget and token totals live in the [`Meter`] the caller owns.
pub struct Client {
    endpoint: Endpoint,
    options: ClientOptions,
    meter: Meter,
    agent: ureq::Agent,
    /// The server has no Responses endpoint: use chat completions from now on.
    chat_only: AtomicBool,
    /// The server rejected `response_format`: stop sending it.
    no_json_mode: AtomicBool,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("endpoint", &self.endpoint)
            .field("options", &self.options)
            .field("meter", &self.meter)
            .finish_non_exhaustive()
    }
}

/// A non-2xx answer, before it becomes an [`LlmError`].
struct Failure {
    status: u16,
    retry_after: Option<Duration>,
    body: String,
}

impl Client {
    /// A client with the default limits.
    pub fn new(endpoint: Endpoint, meter: Meter) -> Client {
        Client::with_options(endpoint, meter, ClientOptions::default())
    }

    /// A client with explicit limits (tests use short timeouts).
    pub fn with_options(endpoint: Endpoint, meter: Meter, options: ClientOptions) -> Client {
        let mut config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(options.connect_timeout))
            .timeout_global(Some(options.call_timeout))
            .max_redirects(0)
            .max_redirects_will_error(false)
            .user_agent(concat!("kgrep/", env!("CARGO_PKG_VERSION")));
        if endpoint.is_local() {
            config = config.proxy(None);
        }
        let agent = config.build().new_agent();
        Client {
            endpoint,
            options,
            meter,
            agent,
            chat_only: AtomicBool::new(false),
            no_json_mode: AtomicBool::new(false),
        }
    }

    /// The endpoint this client calls.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Tokens used by every client sharing this client's meter.
    pub fn usage(&self) -> Usage {
        self.meter.usage()
    }

    /// Calls made by every client sharing this client's meter.
    pub fn calls(&self) -> u32 {
        self.meter.calls()
    }

    /// Sends one prompt and parses the reply, its paths mapped back to the
    /// files' keys (`Reply::with_keys`), the API key elided from its text.
    /// Counts one call against the
    /// meter before anything is sent; adds the server's token usage whenever a
    /// 2xx reply arrives, even if its content is then unusable.
    pub fn complete(&self, prompt: &Prompt) -> Result<Reply, LlmError> {
        self.meter.take_call()?;
        let completion = self.exchange(prompt)?;
        self.meter.add_usage(completion.usage);
        // What the model wrote is shown (an answer, a signature's fields, an
        // agent's tool result): a server that echoes the key gets it elided.
        let text = self.endpoint.without_key(&completion.text);
        // Paths sent redacted name their files again (`Prompt::paths`).
        match parse_reply(&text) {
            Ok(reply) => Ok(reply.with_keys(&prompt.paths)),
            Err(ReplyError::Truncated { salvaged }) => Err(LlmError::Truncated {
                salvaged: salvaged.map(|r| Box::new(r.with_keys(&prompt.paths))),
            }),
            Err(_) if completion.truncated => Err(LlmError::Truncated { salvaged: None }),
            Err(err) => Err(LlmError::BadReply(err.to_string())),
        }
    }

    /// The protocol actually used next (Responses unless it proved missing).
    fn protocol(&self) -> Protocol {
        match self.endpoint.protocol {
            Protocol::Responses if self.chat_only.load(Ordering::Relaxed) => {
                Protocol::ChatCompletions
            }
            other => other,
        }
    }

    /// One logical call: at most one switch to chat and one switch off JSON mode.
    fn exchange(&self, prompt: &Prompt) -> Result<wire::Completion, LlmError> {
        let mut last = None;
        for _ in 0..3 {
            let protocol = self.protocol();
            let json_mode = !self.no_json_mode.load(Ordering::Relaxed);
            let request = wire::build(&self.endpoint, protocol, prompt, json_mode);
            match self.send_with_retries(&request)? {
                // A 2xx body can still carry an error message, and a server
                // may quote the key in it: the key goes before the message is
                // cut short, then the rest is scrubbed, as an error status's is.
                Ok(body) => {
                    let key = self.endpoint.api_key.as_ref().map(ApiKey::expose);
                    return wire::parse_completion(protocol, &body, key).map_err(|err| match err {
                        LlmError::BadReply(message) => {
                            LlmError::BadReply(self.endpoint.scrub(&message))
                        }
                        other => other,
                    });
                }
                Err(f) if protocol == Protocol::Responses && matches!(f.status, 404 | 405) => {
                    self.chat_only.store(true, Ordering::Relaxed);
                    last = Some(f);
                }
                Err(f) if json_mode && rejects_response_format(&f) => {
                    self.no_json_mode.store(true, Ordering::Relaxed);
                    last = Some(f);
                }
                Err(f) => return Err(self.status_error(f)),
            }
        }
        Err(match last {
            Some(f) => self.status_error(f),
            None => LlmError::BadReply("no request was sent".into()),
        })
    }

    /// Sends, retrying 429 and 5xx. `Ok(Ok(body))` is a 2xx body, `Ok(Err(_))`
    /// the final non-2xx answer, `Err(_)` a transport failure.
    fn send_with_retries(
        &self,
        request: &WireRequest,
    ) -> Result<Result<String, Failure>, LlmError> {
        let mut attempt = 0;
        loop {
            let failure = match self.send_once(request)? {
                Ok(body) => return Ok(Ok(body)),
                Err(f) => f,
            };
            if !is_retryable(failure.status) || attempt >= self.options.max_retries {
                return Ok(Err(failure));
            }
            let backoff = self.options.backoff.saturating_mul(1 << attempt.min(16));
            let wait = failure.retry_after.unwrap_or(backoff);
            // A wait the query's deadline would end anyway is not waited.
            let left = self.meter.time_left().unwrap_or(Duration::MAX);
            if wait > self.options.max_wait || wait >= left {
                return Ok(Err(failure));
            }
            std::thread::sleep(wait);
            attempt += 1;
        }
    }

    /// One HTTP exchange, the body read up to the reply limit.
    fn send_once(&self, request: &WireRequest) -> Result<Result<String, Failure>, LlmError> {
        let url = &request.url;
        if host_of(url).is_some_and(|h| h == "invalid" || h.ends_with(".invalid")) {
            return Err(self.connect_error("host not found (a reserved .invalid name)"));
        }
        let body = serde_json::to_vec(&request.body)
            .map_err(|e| LlmError::BadReply(format!("cannot encode the request: {e}")))?;
        let timeout = self.time_for_call()?;
        let mut builder = self
            .agent
            .post(url.as_str())
            .config()
            .timeout_global(Some(timeout))
            .build();
        for (name, value) in &request.headers {
            builder = builder.header(*name, value.wire());
        }
        let mut response = builder
            .send(&body[..])
            .map_err(|e| self.transport_error(e, timeout))?;
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers(), SystemTime::now());
        let bytes = response
            .body_mut()
            .with_config()
            .limit(self.options.max_reply_bytes)
            .read_to_vec()
            .map_err(|e| self.transport_error(e, timeout))?;
        let body = String::from_utf8_lossy(&bytes).into_owned();
        if (200..300).contains(&status) {
            Ok(Ok(body))
        } else {
            Ok(Err(Failure {
                status,
                retry_after,
                body,
            }))
        }
    }

    fn status_error(&self, f: Failure) -> LlmError {
        let url = self.endpoint.display_base();
        let message = self
            .endpoint
            .scrub(&server_message(&f.body, self.endpoint.api_key.as_ref()));
        match f.status {
            401 | 403 => LlmError::Auth {
                url,
                status: f.status,
                message,
            },
            429 => LlmError::RateLimited {
                url,
                retry_after: f.retry_after,
            },
            status => LlmError::Http {
                url,
                status,
                message,
            },
        }
    }

    fn connect_error(&self, reason: &str) -> LlmError {
        LlmError::Connect {
            url: self.endpoint.display_base(),
            reason: self.endpoint.scrub(reason),
        }
    }

    /// How long the next exchange may take: the call timeout, or less when
    /// the query's deadline is nearer.
    fn time_for_call(&self) -> Result<Duration, LlmError> {
        match self.meter.time_left() {
            None => Ok(self.options.call_timeout),
            Some(left) if left.is_zero() => Err(self.meter.deadline_error()),
            Some(left) => Ok(left.min(self.options.call_timeout)),
        }
    }

    /// `call_timeout`: the time this exchange was given.
    fn transport_error(&self, err: ureq::Error, call_timeout: Duration) -> LlmError {
        let url = self.endpoint.display_base();
        let timeout = |connect: bool| LlmError::Timeout {
            url: url.clone(),
            after: if connect {
                self.options.connect_timeout.min(call_timeout)
            } else {
                call_timeout
            },
        };
        match err {
            ureq::Error::Timeout(which) => timeout(matches!(
                which,
                ureq::Timeout::Connect | ureq::Timeout::Resolve
            )),
            ureq::Error::Io(e)
                if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) =>
            {
                timeout(false)
            }
            ureq::Error::BodyExceedsLimit(limit) => LlmError::TooLarge { url, limit },
            ureq::Error::HostNotFound => self.connect_error("host not found"),
            ureq::Error::Io(e) => self.connect_error(&e.to_string()),
            ureq::Error::ConnectionFailed => self.connect_error("connection failed"),
            ureq::Error::Tls(reason) => self.connect_error(&format!("TLS: {reason}")),
            ureq::Error::Protocol(e) => LlmError::BadReply(
                self.endpoint
                    .scrub(&format!("invalid HTTP from {url}: {e}")),
            ),
            other => {
                let text = self.endpoint.scrub(&other.to_string());
                self.connect_error(&one_line(
                    &text,
                    self.endpoint.api_key.as_ref().map(ApiKey::expose),
                ))
            }
        }
    }
}

impl Llm for Client {
    fn expand(&self, req: &ExpansionRequest) -> Result<Reply, LlmError> {
        self.complete(&prompt::expansion(req))
    }

    fn select(&self, req: &SelectionRequest) -> Result<Reply, LlmError> {
        self.complete(&prompt::selection(req))
    }

    fn calls(&self) -> u32 {
        self.meter.calls()
    }

    fn usage(&self) -> Usage {
        self.meter.usage()
    }
}

/// 429, and the 5xx answers that mean "try again" (529: Anthropic overloaded).
fn is_retryable(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 504 | 529)
}

/// A 400/422 that complains about the structured-output parameter.
fn rejects_response_format(f: &Failure) -> bool {
    let body = f.body.to_ascii_lowercase();
    matches!(f.status, 400 | 422)
        && ["response_format", "json_schema", "text.format", "schema"]
            .iter()
            .any(|needle| body.contains(needle))
}

/// `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an HTTP date).
fn retry_after(headers: &ureq::http::HeaderMap, now: SystemTime) -> Option<Duration> {
    let text = |name: &str| headers.get(name)?.to_str().ok().map(str::to_string);
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        if ms.is_finite() && ms >= 0.0 {
            return Some(Duration::from_secs_f64(ms.min(1e9) / 1000.0));
        }
    }
    parse_retry_after(&text("retry-after")?, now)
}

/// A `Retry-After` value: delay seconds (fractions tolerated) or an HTTP date (a
/// date in the past means now).
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The server's error message, safe to print: taken from `error.message` when
/// the body is JSON, the key removed, credentials redacted, on one line, short.
fn server_message(body: &str, key: Option<&ApiKey>) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| wire::error_message(v.get("error").unwrap_or(v)));
    one_line(message.unwrap_or(body), key.map(ApiKey::expose))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(parse_retry_after("3", now), Some(Duration::from_secs(3)));
        assert_eq!(
            parse_retry_after(" 0.5 ", now),
            Some(Duration::from_millis(500))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:42 GMT", now),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("NaN", now), None);
        assert!(parse_retry_after("1e300", now).is_some());
    }

    #[test]
    fn retry_after_ms_header_wins() {
        let mut headers = ureq::http::HeaderMap::new();
        headers.insert("retry-after", "9".parse().unwrap());
        headers.insert("retry-after-ms", "250".parse().unwrap());
        let now = SystemTime::now();
        assert_eq!(retry_after(&headers, now), Some(Duration::from_millis(250)));
        headers.remove("retry-after-ms");
        assert_eq!(retry_after(&headers, now), Some(Duration::from_secs(9)));
    }

    #[test]
    fn server_messages_lose_keys_and_newlines() {
        let key = ApiKey::new(
            "sk-live-0123456789abcdefghij",
            super::super::KeySource::Setting,
        );
        let body = r#"{"error": {"message": "Incorrect API key provided: sk-live-0123456789abcdefghij.\nSee docs"}}"#;
        let msg = server_message(body, Some(&key));
        assert!(!msg.contains("0123456789abcdefghij"), "{msg}");
        assert!(!msg.contains('\n'));
        assert!(
            msg.starts_with("Incorrect API key provided: [REDACTED]"),
            "{msg}"
        );
        // Echoed in another case, it is removed all the same.
        let upper = r#"{"error": {"message": "bad key SK-LIVE-0123456789ABCDEFGHIJ"}}"#;
        let msg = server_message(upper, Some(&key));
        assert_eq!(msg, "bad key [REDACTED]");
        let long = "x".repeat(5000);
        assert_eq!(
            server_message(&long, None).chars().count(),
            super::super::redact::MAX_MESSAGE_CHARS + 1
        );
        assert_eq!(
            server_message("plain\ttext\u{1b}[31m", None),
            "plain text[31m"
        );
    }

    #[test]
    fn which_failures_retry_or_drop_json_mode() {
        assert!(is_retryable(429) && is_retryable(503) && is_retryable(529));
        assert!(!is_retryable(400) && !is_retryable(401) && !is_retryable(404));
        let f = |status, body: &str| Failure {
            status,
            retry_after: None,
            body: body.to_string(),
        };
        assert!(rejects_response_format(&f(
            400,
            "Unsupported parameter: 'response_format'"
        )));
        assert!(rejects_response_format(&f(
            422,
            "json_schema not supported"
        )));
        assert!(!rejects_response_format(&f(400, "max_tokens is too large")));
        assert!(!rejects_response_format(&f(500, "response_format")));
    }
}
