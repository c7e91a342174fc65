//! JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line.
//!
//! Owns reading a line into a [`Message`] (or the error response it deserves)
//! and writing responses. A batch (a JSON array) is refused: MCP dropped
//! batches in its 2025-06-18 revision. Does not own what a method does
//! (`server`).

use serde::Deserialize;
use serde_json::value::RawValue;
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
/// forbids null), kept as the JSON text the client sent and echoed as it came.
/// A `Value` would not do: without serde_json's `arbitrary_precision` (which
/// changes every number of the crate), an integer past 64 bits reads as a
/// float, and `18446744073709551616` came back as `1.8446744073709552e19`,
/// an id the client never sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Id(String);

impl Id {
    /// The id of a response that could not read the request's.
    pub fn null() -> Id {
        Id("null".to_owned())
    }

    /// An id of ours (a request to the client).
    pub fn text(text: &str) -> Id {
        Id(Value::from(text).to_string())
    }

    /// The id as a string, when it is one.
    pub fn as_str(&self) -> Option<String> {
        match serde_json::from_str::<Value>(&self.0) {
            Ok(Value::String(text)) => Some(text),
            _ => None,
        }
    }

    /// The id as JSON text, to write into a message.
    pub fn json(&self) -> &str {
        &self.0
    }
}

/// A message's `id` as its JSON text (serde_json's `RawValue`), read beside
/// the `Value` the rest of the message is read as.
#[derive(Deserialize)]
struct RawId<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

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
        .map_err(|err| Failure::new(Id::null(), PARSE_ERROR, format!("Parse error: {err}")))?;
    let Value::Object(object) = value else {
        let what = if value.is_array() {
            "batches are not supported (MCP 2025-06-18 removed them); send one message per line"
        } else {
            "a message must be a JSON object"
        };
        return Err(Failure::new(
            Id::null(),
            INVALID_REQUEST,
            format!("Invalid Request: {what}"),
        ));
    };
    message(object, line).map(Some)
}

/// The id of a message read as `object` from `line`: its text as sent. A
/// message whose `id` key is repeated fails `RawId` (serde refuses duplicate
/// fields) where `Value` keeps the last; the `Value`'s text serves then.
fn id_text(id: &Value, line: &[u8]) -> Id {
    match serde_json::from_slice::<RawId>(line) {
        Ok(RawId { id: Some(raw) }) => Id(raw.get().to_owned()),
        _ => Id(id.to_string()),
    }
}

fn message(mut object: Map<String, Value>, line: &[u8]) -> Result<Message, Failure> {
    let id = object.remove("id");
    let is_valid_id = id
        .as_ref()
        .is_some_and(|id| id.is_string() || id.is_number());
    let id = id.map(|id| {
        if is_valid_id {
            id_text(&id, line)
        } else {
            Id(id.to_string())
        }
    });
    let reply_id = id.clone().filter(|_| is_valid_id).unwrap_or_else(Id::null);
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

/// One message: `{"jsonrpc":"2.0","id":ID,"KEY":VALUE}`, the id written as
/// the JSON text it came as (see [`Id`]), the value by serde_json.
fn envelope(id: &Id, key: &str, value: &Value) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},{}:{value}}}",
        id.json(),
        Value::from(key)
    )
}

/// A request of ours to the client, as one line (no line end).
pub fn request(id: &Id, method: &str) -> String {
    envelope(id, "method", &Value::from(method))
}

/// A success response, as one line (no line end).
pub fn result(id: &Id, result: Value) -> String {
    envelope(id, "result", &result)
}

/// An error response, as one line (no line end).
pub fn error(failure: &Failure) -> String {
    let error = json!({"code": failure.code, "message": failure.message});
    envelope(&failure.id, "error", &error)
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
                id: Id("7".into()),
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
                id: Id::text("a"),
                result: Some(json!({}))
            })
        );
        let m = parse(br#"{"jsonrpc":"2.0","id":"a","error":{"code":1}}"#).unwrap();
        assert_eq!(
            m,
            Some(Message::Response {
                id: Id::text("a"),
                result: None
            })
        );
        assert_eq!(parse(b"  \t").unwrap(), None);
    }

    #[test]
    fn malformed_messages_get_the_right_codes() {
        let code = |line: &[u8]| parse(line).unwrap_err();
        let f = code(b"{not json");
        assert_eq!((f.code, f.id.clone()), (PARSE_ERROR, Id::null()));
        assert_eq!(code(&[0xff, 0xfe]).code, PARSE_ERROR);
        assert_eq!(code(b"[1,2]").code, INVALID_REQUEST);
        assert_eq!(code(b"42").code, INVALID_REQUEST);
        let f = code(br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#);
        assert_eq!((f.code, f.id), (INVALID_REQUEST, Id("3".into())));
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#).code,
            INVALID_REQUEST
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":5}"#).code,
            INVALID_REQUEST
        );
        let f = code(br#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#);
        assert_eq!((f.code, f.id), (INVALID_PARAMS, Id("1".into())));
    }

    #[test]
    fn responses_are_single_lines() {
        let line = result(&Id("1".into()), json!({"text": "a\nb"}));
        assert!(!line.contains('\n'));
        assert_eq!(
            error(&Failure::new(Id::null(), PARSE_ERROR, "Parse error")),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
    }

    #[test]
    fn ids_are_echoed_as_sent() {
        let echo = |line: &str| match parse(line.as_bytes()).unwrap() {
            Some(Message::Request { id, .. }) => result(&id, json!({})),
            other => panic!("not a request: {other:?}"),
        };
        // Past 64 bits, a `Value` would have made these floats.
        for id in [
            "18446744073709551616",
            "-9223372036854775809",
            "123456789012345678901234567890",
            "1e3",
            "2.50",
            "\"a\\u0041\"",
            "7",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert_eq!(
                echo(&line),
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
            );
        }
        // Spaces around the id are not part of it.
        assert_eq!(
            echo(r#"{"jsonrpc":"2.0", "id" :  12 , "method":"ping"}"#),
            r#"{"jsonrpc":"2.0","id":12,"result":{}}"#
        );
        // A repeated key: the last one, as the rest of the message is read.
        assert_eq!(
            echo(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#),
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
        );
        assert_eq!(
            Id::text("kgrep-roots").as_str().as_deref(),
            Some("kgrep-roots")
        );
        assert_eq!(Id("5".into()).as_str(), None);
    }
}
