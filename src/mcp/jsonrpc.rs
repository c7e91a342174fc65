//! JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line.
//!
//! Owns reading a line into a [`Message`] (or the error response it deserves)
//! and writing responses. A batch (a JSON array) is refused: MCP dropped
//! batches in its 2025-06-18 revision. Does not own what a method does
//! (`server`).

use serde_json::{json, Map, Value};

/// Invalid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// Valid JSON that is not a JSON-RPC 2.0 request or notification.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The method's parameters are wrong (an unknown tool, a missing name).
pub const INVALID_PARAMS: i64 = -32602;
/// The server failed (a panic caught while serving a request).
pub const INTERNAL_ERROR: i64 = -32603;

/// A request's id: a string or a number (JSON-RPC allows no other kind; MCP
/// forbids null).
pub type Id = Value;

/// One message received.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// A call that wants a response.
    Request {
        id: Id,
        method: String,
        params: Map<String, Value>,
    },
    /// A call that wants none.
    Notification {
        method: String,
        params: Map<String, Value>,
    },
    /// A response to a request of ours (`roots/list`): its id, and its
    /// `result` (`None` for an error response).
    Response { id: Id, result: Option<Value> },
}

/// An error to send back: its code, message and the id it answers (null when
/// the id could not be read).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub id: Id,
    pub code: i64,
    pub message: String,
}

impl Failure {
    pub fn new(id: Id, code: i64, message: impl Into<String>) -> Failure {
        Failure {
            id,
            code,
            message: message.into(),
        }
    }
}

/// Reads one line (without its line end). `Ok(None)`: a blank line, which is
/// no message at all.
pub fn parse(line: &[u8]) -> Result<Option<Message>, Failure> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(line)
        .map_err(|err| Failure::new(Value::Null, PARSE_ERROR, format!("Parse error: {err}")))?;
    let Value::Object(object) = value else {
        let what = if value.is_array() {
            "batches are not supported (MCP 2025-06-18 removed them); send one message per line"
        } else {
            "a message must be a JSON object"
        };
        return Err(Failure::new(
            Value::Null,
            INVALID_REQUEST,
            format!("Invalid Request: {what}"),
        ));
    };
    message(object).map(Some)
}

fn message(mut object: Map<String, Value>) -> Result<Message, Failure> {
    let id = object.remove("id");
    let is_valid_id = id
        .as_ref()
        .is_some_and(|id| id.is_string() || id.is_number());
    let reply_id = id.clone().filter(|_| is_valid_id).unwrap_or(Value::Null);
    let invalid = |why: &str| {
        Failure::new(
            reply_id.clone(),
            INVALID_REQUEST,
            format!("Invalid Request: {why}"),
        )
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("\"jsonrpc\" must be \"2.0\""));
    }
    let Some(method) = object.remove("method") else {
        if let Some(id) =
            id.filter(|_| object.contains_key("result") || object.contains_key("error"))
        {
            return Ok(Message::Response {
                id,
                result: object.remove("result"),
            });
        }
        return Err(invalid("no \"method\""));
    };
    let Value::String(method) = method else {
        return Err(invalid("\"method\" must be a string"));
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => {
            let failure = Failure::new(
                reply_id,
                INVALID_PARAMS,
                "Invalid params: \"params\" must be an object",
            );
            return Err(failure);
        }
    };
    match id {
        None => Ok(Message::Notification { method, params }),
        Some(id) if is_valid_id => Ok(Message::Request { id, method, params }),
        Some(_) => Err(invalid("\"id\" must be a string or a number")),
    }
}

/// A request of ours to the client, as one line (no line end).
pub fn request(id: &Id, method: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method}).to_string()
}

/// A success response, as one line (no line end).
pub fn result(id: &Id, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// An error response, as one line (no line end).
pub fn error(failure: &Failure) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": failure.id,
        "error": {"code": failure.code, "message": failure.message},
    })
    .to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_notifications() {
        let m = parse(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#)
            .unwrap()
            .unwrap();
        assert_eq!(
            m,
            Message::Request {
                id: json!(7),
                method: "ping".into(),
                params: Map::new()
            }
        );
        let m = parse(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .unwrap()
            .unwrap();
        assert!(matches!(m, Message::Notification { .. }));
        let m = parse(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#).unwrap();
        assert_eq!(
            m,
            Some(Message::Response {
                id: json!("a"),
                result: Some(json!({}))
            })
        );
        let m = parse(br#"{"jsonrpc":"2.0","id":"a","error":{"code":1}}"#).unwrap();
        assert_eq!(
            m,
            Some(Message::Response {
                id: json!("a"),
                result: None
            })
        );
        assert_eq!(parse(b"  \t").unwrap(), None);
    }

    #[test]
    fn malformed_messages_get_the_right_codes() {
        let code = |line: &[u8]| parse(line).unwrap_err();
        let f = code(b"{not json");
        assert_eq!((f.code, f.id.clone()), (PARSE_ERROR, Value::Null));
        assert_eq!(code(&[0xff, 0xfe]).code, PARSE_ERROR);
        assert_eq!(code(b"[1,2]").code, INVALID_REQUEST);
        assert_eq!(code(b"42").code, INVALID_REQUEST);
        let f = code(br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#);
        assert_eq!((f.code, f.id), (INVALID_REQUEST, json!(3)));
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#).code,
            INVALID_REQUEST
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":5}"#).code,
            INVALID_REQUEST
        );
        let f = code(br#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#);
        assert_eq!((f.code, f.id), (INVALID_PARAMS, json!(1)));
    }

    #[test]
    fn responses_are_single_lines() {
        let line = result(&json!(1), json!({"text": "a\nb"}));
        assert!(!line.contains('\n'));
        assert_eq!(
            error(&Failure::new(Value::Null, PARSE_ERROR, "Parse error")),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
    }
}
