//! `kgrep --mcp`: a Model Context Protocol server on stdin and stdout, so a
//! coding agent calls kgrep as a tool instead of through a shell.
//!
//! Synchronous, like the rest of kgrep: one message is read, handled and
//! answered before the next (a search is CPU work on all cores already; an
//! async runtime would add nothing). stdout carries protocol messages only,
//! one JSON-RPC message per line; diagnostics go to stderr. The server runs
//! until stdin ends.
//!
//! - [`jsonrpc`]: reading and writing JSON-RPC 2.0 messages;
//! - [`server`]: the lifecycle (`initialize`, version negotiation) and
//!   dispatch;
//! - [`tools`]: the tools, from arguments to results;
//! - [`roots`]: where calls may look (the server's roots);
//! - [`schema`]: how `tools/list` describes them.
//!
//! Searches go through [`crate::pipeline::find`], as the command line's do;
//! a [`crate::session::Session`] keeps the thesaurus between them.

pub mod jsonrpc;
pub mod roots;
pub mod schema;
pub mod server;
pub mod tools;

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use crate::cli::Flags;
use crate::config::{self, ConfigPaths};
use crate::exit::ExitStatus;
use crate::messages;
pub use roots::Roots;
pub use server::{Server, PROTOCOL_VERSIONS};
pub use tools::Tools;

/// Longest message read: a longer line is answered with a parse error and
/// skipped, without being held in memory (a tool call is a few hundred bytes).
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// A server flag that would take a call's query from elsewhere (`-e`, `-f`:
/// the query became a path), write what is not a tool result (`--features`
/// wrote its rows on stdout, among the protocol), or print no lines while the
/// structured content lists them (`-l`, `-c`, `-q`, `--passthru`, …).
fn call_flag(flags: &Flags) -> Option<&'static str> {
    [
        (!flags.regexps.is_empty(), "-e/--regexp"),
        (!flags.pattern_files.is_empty(), "-f/--file"),
        (flags.files, "--files"),
        (flags.features, "--features"),
        (flags.type_list, "--type-list"),
        (flags.files_with_matches, "-l/--files-with-matches"),
        (flags.files_without_match, "--files-without-match"),
        (flags.count, "-c/--count"),
        (flags.count_matches, "--count-matches"),
        (flags.quiet, "-q/--quiet"),
        (flags.passthru, "--passthru"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name))
}

/// Serves MCP on this process's stdin and stdout until stdin ends. `flags`
/// are the server's own: defaults for every call (a pattern is refused).
pub fn serve_stdio(flags: Flags) -> ExitStatus {
    if flags.pattern.is_some() {
        messages::line("--mcp takes no pattern or paths: each tool call gives its own");
        return ExitStatus::Error;
    }
    if let Some(flag) = call_flag(&flags) {
        messages::line(&format!(
            "--mcp takes no {flag}: each tool call gives its own query and gets its results \
             as text and structured content"
        ));
        return ExitStatus::Error;
    }
    let config = config::load(&ConfigPaths::from_process_env());
    let allow_outside = flags.allow_outside || config.mcp_allow_outside == Some(true);
    if allow_outside {
        messages::warn("mcp: --allow-outside: tool calls may search any path this user can read");
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let roots = Roots::new(&cwd, allow_outside);
    let mut server = Server::new(Tools::new(flags, config, roots));
    messages::verbose("mcp: serving on stdin and stdout");
    let stdin = io::stdin();
    let stdout = io::stdout();
    match serve(&mut stdin.lock(), &mut stdout.lock(), &mut server) {
        Ok(()) => ExitStatus::Matched,
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitStatus::Matched,
        Err(err) => {
            messages::line(&format!("mcp: {err}"));
            ExitStatus::Error
        }
    }
}

/// Reads messages from `input` until it ends, writing each response to
/// `output` as one line.
pub fn serve(
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    server: &mut Server,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        let reply = match read_message(input, &mut line)? {
            Read::End => {
                // The calls still held for the client's roots are answered.
                server.finish();
                for line in server.take_outgoing() {
                    output.write_all(line.as_bytes())?;
                    output.write_all(b"\n")?;
                }
                output.flush()?;
                return Ok(());
            }
            Read::Line => server.handle_line(&line),
            Read::TooLong => Some(jsonrpc::error(&jsonrpc::Failure::new(
                jsonrpc::Id::null(),
                jsonrpc::PARSE_ERROR,
                format!("Parse error: a message is longer than {MAX_MESSAGE_BYTES} bytes"),
            ))),
        };
        for line in reply.into_iter().chain(server.take_outgoing()) {
            output.write_all(line.as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
    }
}

/// What one read got.
enum Read {
    End,
    /// A line, in the buffer without its line end.
    Line,
    /// A line over [`MAX_MESSAGE_BYTES`], skipped.
    TooLong,
}

/// Reads one line into `buf` (its `\n` and a `\r` before it dropped).
fn read_message(input: &mut dyn BufRead, buf: &mut Vec<u8>) -> io::Result<Read> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => Read::End,
                (true, true) => Read::TooLong,
                (true, false) => Read::Line,
            });
        }
        any = true;
        let newline = memchr::memchr(b'\n', available);
        let chunk = &available[..newline.map_or(available.len(), |i| i)];
        if !too_long {
            if buf.len() + chunk.len() > MAX_MESSAGE_BYTES {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = newline.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::path::Path;

    fn lines(input: &[u8]) -> Vec<String> {
        let roots = Roots::new(Path::new("."), false);
        let mut server = Server::new(Tools::new(
            Flags::default(),
            config::Config::default(),
            roots,
        ));
        let mut out = Vec::new();
        serve(&mut &input[..], &mut out, &mut server).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn each_message_gets_one_line_and_eof_ends_the_loop() {
        let out = lines(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\n\
              garbage\n\
              {\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\
              {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
        );
        assert_eq!(out.len(), 3, "{out:?}");
        assert_eq!(out[0], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        assert!(out[1].contains("-32700"));
        assert_eq!(out[2], r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    }

    #[test]
    fn an_overlong_line_is_refused_and_the_next_served() {
        let mut input = vec![b'x'; MAX_MESSAGE_BYTES + 10];
        input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n");
        let out = lines(&input);
        assert_eq!(out.len(), 2);
        assert!(out[0].contains("longer than"));
        assert!(out[1].contains("\"id\":9"));
    }
}
