//! The MCP lifecycle and method dispatch: `initialize` (with protocol-version
//! negotiation), `notifications/initialized`, `ping`, `tools/list`,
//! `tools/call`. One message in, at most one response out (held calls
//! answer later, through the outbox); no I/O here.
//!
//! Read from the specification, revisions 2025-11-25 and 2025-06-18
//! (`basic/lifecycle`, `basic/transports`, `basic/utilities/ping`,
//! `server/tools`, `client/roots`): the server answers the client's version
//! when it supports it, else its latest; requests other than `ping` before
//! `initialize` are refused; notifications get no response, known or not.
//! A client that declares the `roots` capability is asked `roots/list` once
//! it is initialized, and again when it says its roots changed; the answer
//! sets where calls may look (`roots`). Until it answers, `tools/call`s are
//! held and served after it, in order (refused if it never answers), from
//! `initialize` on, so a call sent before `initialized` waits too: a call
//! served before would be checked against the working directory, wider than
//! the client's roots. Requests of the server, and the responses to held
//! calls, wait in an outbox the transport drains ([`Server::take_outgoing`]).

use serde_json::{json, Map, Value};

use super::jsonrpc::{
    self, Failure, Id, Message, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
};
use super::schema;
use super::tools::{self, Tools};

/// The protocol revisions served, latest first: the current one and the one
/// before it. Both carry tools' `outputSchema` and `structuredContent`.
pub const PROTOCOL_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];

/// What the client is told about using the tools, at `initialize`.
const INSTRUCTIONS: &str = "kgrep searches code and documents for a natural-language \
question, an identifier, a \"quoted literal\" or a regex, offline first. Use `search` for \
the lines that answer a question (grep-style text, ranked files, line numbers), `answer` \
for a short grounded answer with path:line citations, `explain` for why lines ranked. \
Paths are relative to the server's working directory and must be under its roots (the roots \
the client declares, else that directory); results are capped by max_tokens.";

/// The id of the server's `roots/list` requests.
const ROOTS_REQUEST: &str = "kgrep-roots";

/// Where the session is in its lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for `initialize`.
    New,
    /// `initialize` answered (the client's `initialized` may not have come yet;
    /// requests are served either way).
    Ready,
}

/// One MCP session over one pair of streams.
pub struct Server {
    phase: Phase,
    /// The negotiated protocol revision.
    version: Option<&'static str>,
    tools: Tools,
    /// The client declared the `roots` capability.
    client_roots: bool,
    /// Requests of ours to send (`roots/list`), and the responses to calls
    /// held for the roots (below), once they are served.
    outgoing: Vec<String>,
    /// The client declared `roots` and has not answered `roots/list` (sent
    /// once it is initialized): a call now would be checked against roots
    /// wider than the client's (the working directory), so calls wait for
    /// the answer ([`MAX_HELD`] of them).
    awaiting_roots: bool,
    /// The `tools/call`s held meanwhile, in order: each id and line.
    held: Vec<(Id, Vec<u8>)>,
}

/// Calls held while the client's roots are awaited; past this many, a call
/// is refused (a client that never answers must not fill the memory).
const MAX_HELD: usize = 64;

impl Server {
    pub fn new(tools: Tools) -> Server {
        Server {
            phase: Phase::New,
            version: None,
            tools,
            client_roots: false,
            outgoing: Vec::new(),
            awaiting_roots: false,
            held: Vec::new(),
        }
    }

    /// The server's own requests to send, oldest first (drained).
    pub fn take_outgoing(&mut self) -> Vec<String> {
        std::mem::take(&mut self.outgoing)
    }

    /// Asks the client for its roots, if it has any to give.
    fn ask_roots(&mut self) {
        if self.client_roots && self.phase == Phase::Ready {
            self.outgoing
                .push(jsonrpc::request(&Id::text(ROOTS_REQUEST), "roots/list"));
            self.awaiting_roots = true;
        }
    }

    /// The negotiated protocol revision, once `initialize` was answered.
    pub fn version(&self) -> Option<&'static str> {
        self.version
    }

    /// Handles one received line; returns the response line to send, if any.
    pub fn handle_line(&mut self, line: &[u8]) -> Option<String> {
        match jsonrpc::parse(line) {
            Ok(Some(Message::Request { id, method, .. }))
                if method == "tools/call" && self.awaiting_roots =>
            {
                if self.held.len() < MAX_HELD {
                    self.held.push((id, line.to_vec()));
                    return None;
                }
                Some(jsonrpc::result(&id, unanswered_roots(false)))
            }
            Ok(Some(Message::Request { id, method, params })) => {
                Some(match self.request(&id, &method, &params) {
                    Ok(result) => jsonrpc::result(&id, result),
                    Err(failure) => jsonrpc::error(&failure),
                })
            }
            Ok(Some(Message::Notification { method, .. })) => {
                self.notification(&method);
                None
            }
            Ok(Some(Message::Response { id, result })) => {
                self.response(&id, result.as_ref());
                None
            }
            Ok(None) => None,
            Err(failure) => Some(jsonrpc::error(&failure)),
        }
    }

    fn request(
        &mut self,
        id: &Id,
        method: &str,
        params: &Map<String, Value>,
    ) -> Result<Value, Failure> {
        let fail = |code, message: String| Failure::new(id.clone(), code, message);
        match (method, self.phase) {
            ("ping", _) => Ok(json!({})),
            ("initialize", Phase::New) => {
                self.initialize(params).map_err(|m| fail(INVALID_PARAMS, m))
            }
            ("initialize", Phase::Ready) => Err(fail(
                INVALID_REQUEST,
                "Invalid Request: the session is already initialized".into(),
            )),
            ("tools/list" | "tools/call", Phase::New) => Err(fail(
                INVALID_REQUEST,
                "Invalid Request: the session is not initialized; send initialize first".into(),
            )),
            ("tools/list", Phase::Ready) => Ok(json!({ "tools": schema::definitions() })),
            ("tools/call", Phase::Ready) => self.call(params).map_err(|(code, m)| fail(code, m)),
            _ => Err(fail(
                METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        }
    }

    /// Notifications get no response. `notifications/initialized` needs no
    /// action (requests are served once `initialize` is answered), and
    /// `notifications/cancelled` none either: a call is over before the next
    /// message is read.
    fn notification(&mut self, method: &str) {
        crate::messages::verbose(&format!("mcp: notification {method}"));
        if matches!(
            method,
            "notifications/initialized" | "notifications/roots/list_changed"
        ) {
            self.ask_roots();
        }
    }

    /// A response to one of our requests: the client's roots (an error, or
    /// any other id, changes nothing).
    fn response(&mut self, id: &Id, result: Option<&Value>) {
        if id.as_str().as_deref() != Some(ROOTS_REQUEST) {
            return;
        }
        match result {
            Some(result) => {
                let taken = self.tools.declare_roots(result);
                crate::messages::verbose(&format!("mcp: {taken} root(s) declared by the client"));
            }
            None => crate::messages::verbose(
                "mcp: the client answered roots/list with an error; calls stay under the \
                 working directory",
            ),
        }
        // The calls held for the roots, served now, in order.
        self.awaiting_roots = false;
        for (_, line) in std::mem::take(&mut self.held) {
            if let Some(reply) = self.handle_line(&line) {
                self.outgoing.push(reply);
            }
        }
    }

    /// The input ended: each call still held for roots the client never gave
    /// is refused (its response joins the outbox), never served against the
    /// wider working directory.
    pub fn finish(&mut self) {
        for (id, _) in std::mem::take(&mut self.held) {
            self.outgoing
                .push(jsonrpc::result(&id, unanswered_roots(true)));
        }
    }

    /// `initialize`: agrees on a revision and says what the server offers.
    fn initialize(&mut self, params: &Map<String, Value>) -> Result<Value, String> {
        let Some(asked) = params.get("protocolVersion").and_then(Value::as_str) else {
            return Err("Invalid params: initialize needs \"protocolVersion\" (a string)".into());
        };
        let version = negotiate(asked);
        self.client_roots = params
            .get("capabilities")
            .and_then(|c| c.get("roots"))
            .is_some_and(Value::is_object);
        // Its roots are asked for once it is initialized; a call before
        // that (a client that pipelines its first call) waits for them too.
        self.awaiting_roots = self.client_roots;
        crate::messages::verbose(&format!(
            "mcp: client asked for protocol {asked}; using {version}"
        ));
        self.version = Some(version);
        self.phase = Phase::Ready;
        Ok(json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {
                "name": "kgrep",
                "title": "kgrep: natural-language code search",
                "version": env!("CARGO_PKG_VERSION"),
            },
            "instructions": INSTRUCTIONS,
        }))
    }

    /// `tools/call`. A protocol error for a call that names no known tool; a
    /// tool's own failure (a bad argument, a missing path) is its result, with
    /// `isError`. A panic in a search is caught and reported, so the server
    /// keeps serving.
    fn call(&mut self, params: &Map<String, Value>) -> Result<Value, (i64, String)> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err((
                INVALID_PARAMS,
                "Invalid params: tools/call needs \"name\" (a string)".into(),
            ));
        };
        let Some(tool) = tools::Tool::named(name) else {
            return Err((INVALID_PARAMS, format!("Unknown tool: {name}")));
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(args)) => args.clone(),
            Some(_) => {
                return Err((
                    INVALID_PARAMS,
                    "Invalid params: \"arguments\" must be an object".into(),
                ))
            }
        };
        let tools = &mut self.tools;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tools.call(tool, &arguments)
        }))
        .map_err(|_| {
            (
                INTERNAL_ERROR,
                format!("Internal error: kgrep failed while running {name}; see its stderr"),
            )
        })
    }
}

/// The result of a call refused because the client has not said its roots:
/// while the server runs (more calls held than it keeps), it may call again;
/// once its input `ended`, it never answered, and nothing was searched.
fn unanswered_roots(ended: bool) -> Value {
    tools::error_result(if ended {
        "The client's input ended before it answered this server's roots/list request, so \
         where this call could look was never known: nothing was searched."
    } else {
        "The client has not answered this server's roots/list request, so where calls may look \
         is not known yet: call again once it has answered."
    })
}

/// The revision to use: the client's when served, else the latest.
pub fn negotiate(asked: &str) -> &'static str {
    PROTOCOL_VERSIONS
        .iter()
        .find(|v| **v == asked)
        .copied()
        .unwrap_or(PROTOCOL_VERSIONS[0])
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_keeps_a_served_version_and_offers_the_latest_otherwise() {
        assert_eq!(negotiate("2025-06-18"), "2025-06-18");
        assert_eq!(negotiate("2025-11-25"), "2025-11-25");
        assert_eq!(negotiate("2024-11-05"), "2025-11-25");
        assert_eq!(negotiate("1.0"), "2025-11-25");
    }
}
