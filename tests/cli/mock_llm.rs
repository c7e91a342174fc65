//! A scripted model server on 127.0.0.1, inside the test process.
//!
//! Each test starts one with the replies it wants, in order ([`Step`]: status,
//! headers, body, a delay before the headers, a stall inside the body), points
//! an `--api-base` or an `Endpoint` at [`MockLlm::base_url`], and afterwards
//! asserts on what the server [received](MockLlm::received). Replies are
//! built as OpenAI chat completions, Anthropic messages or Responses objects.
//! It binds only 127.0.0.1, serves one connection at a time (`Connection:
//! close`), answers `500 script exhausted` past the script, and stops (even
//! mid-stall) when dropped. Hand-rolled on `std::net` so that faults a real
//! HTTP library would refuse to produce (stalled bodies, lying lengths) are easy.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// One scripted answer.
#[derive(Clone, Debug)]
pub struct Step {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before sending anything (slow headers).
    pub delay: Duration,
    /// Send the headers and half the body, then wait this long (stalled body).
    pub stall: Option<Duration>,
}

impl Step {
    pub fn new(status: u16, body: impl Into<Vec<u8>>) -> Step {
        Step {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.into(),
            delay: Duration::ZERO,
            stall: None,
        }
    }

    pub fn json(status: u16, value: Value) -> Step {
        Step::new(status, value.to_string())
    }

    /// An OpenAI chat completion whose message content is `content`.
    pub fn chat(content: &str) -> Step {
        Step::chat_full(content, "stop", 100, 10)
    }

    pub fn chat_full(content: &str, finish: &str, prompt: u64, completion: u64) -> Step {
        Step::json(
            200,
            json!({
                "id": "chatcmpl-mock", "object": "chat.completion", "model": "mock",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "finish_reason": finish}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                          "total_tokens": prompt + completion}
            }),
        )
    }

    /// An Anthropic message whose text is `content`.
    pub fn anthropic(content: &str, input: u64, output: u64) -> Step {
        Step::json(
            200,
            json!({
                "id": "msg_mock", "type": "message", "role": "assistant", "model": "mock",
                "content": [{"type": "text", "text": content}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": input, "output_tokens": output}
            }),
        )
    }

    /// A Responses API object whose output text is `content`.
    pub fn responses(content: &str, input: u64, output: u64) -> Step {
        Step::json(
            200,
            json!({
                "id": "resp_mock", "object": "response", "status": "completed",
                "output": [{"type": "message", "role": "assistant",
                            "content": [{"type": "output_text", "text": content}]}],
                "usage": {"input_tokens": input, "output_tokens": output}
            }),
        )
    }

    /// An OpenAI-style error object.
    pub fn error(status: u16, message: &str) -> Step {
        Step::json(
            status,
            json!({"error": {"message": message, "type": "mock_error"}}),
        )
    }

    pub fn header(mut self, name: &str, value: &str) -> Step {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn delay(mut self, delay: Duration) -> Step {
        self.delay = delay;
        self
    }

    pub fn stall(mut self, stall: Duration) -> Step {
        self.stall = Some(stall);
        self
    }
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// The running server; stops when dropped.
pub struct MockLlm {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Decides each reply from the request (an oracle, a replay).
pub type Responder = Box<dyn FnMut(&Received) -> Step + Send>;

impl MockLlm {
    pub fn start(steps: Vec<Step>) -> MockLlm {
        let mut steps = steps.into_iter();
        MockLlm::respond(Box::new(move |_| {
            steps
                .next()
                .unwrap_or_else(|| Step::error(500, "mock script exhausted"))
        }))
    }

    /// A server whose every reply `responder` makes from the request.
    pub fn respond(responder: Responder) -> MockLlm {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log, flag) = (received.clone(), stop.clone());
        let thread = std::thread::spawn(move || serve(listener, responder, log, flag));
        MockLlm {
            addr,
            received,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    pub fn paths(&self) -> Vec<String> {
        self.received().into_iter().map(|r| r.path).collect()
    }
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A port nothing listens on (bound, then released).
pub fn closed_port_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/v1")
}

fn serve(
    listener: TcpListener,
    mut responder: Responder,
    log: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(mut stream) = stream else { continue };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        let Some(request) = read_request(&mut stream) else {
            continue;
        };
        let step = responder(&request);
        log.lock().unwrap().push(request);
        respond(&mut stream, &step, &stop);
    }
}

fn read_request(stream: &mut TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = String::from_utf8_lossy(&body).into_owned();
    Some(Received {
        method,
        path,
        headers,
        body,
    })
}

fn respond(stream: &mut TcpStream, step: &Step, stop: &AtomicBool) {
    if !pause(step.delay, stop) {
        return;
    }
    let mut head = format!("HTTP/1.1 {} Mock\r\n", step.status);
    for (name, value) in &step.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        step.body.len()
    ));
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let body = &step.body[..];
    let (first, rest) = match step.stall {
        Some(_) => body.split_at(body.len() / 2),
        None => (body, &[][..]),
    };
    // A large body is written in chunks; the client may hang up part way.
    for chunk in first.chunks(64 * 1024) {
        if stream.write_all(chunk).is_err() {
            return;
        }
    }
    if let Some(stall) = step.stall {
        let _ = stream.flush();
        if !pause(stall, stop) {
            return;
        }
    }
    let _ = stream.write_all(rest);
    let _ = stream.flush();
}

/// Sleeps in small steps; false if the server is stopping.
fn pause(duration: Duration, stop: &AtomicBool) -> bool {
    let until = Instant::now() + duration;
    while Instant::now() < until {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}
