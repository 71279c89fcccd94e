//! The stdio transport: one JSON-RPC message per line, read with a bound on its length
//! ([`MAX_MESSAGE_BYTES`]), answered in order on a worker thread while the reader keeps
//! reading (so a `notifications/cancelled` is seen at once), each reply written as one
//! line and flushed.

use std::io::{BufRead, ErrorKind, Write};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::protocol::{INVALID_REQUEST, PARSE_ERROR, error_reply};
use super::{Notify, Server};
use crate::error::{Error, Result};
use crate::ops;

/// Longest message read: the largest parameters an operation takes, plus room for the
/// JSON-RPC envelope. A longer line is answered with [`INVALID_REQUEST`] and skipped.
pub const MAX_MESSAGE_BYTES: usize = ops::MAX_PARAMS_BYTES + (1 << 20);

impl Server {
    /// Run a session: read messages from `input` line by line until its end, writing each
    /// reply as one line to `output` and flushing it. A client that closes `output` ends
    /// the session normally; other read and write failures are `io` errors.
    ///
    /// Requests are answered one after another, in order, on a thread of their own, so
    /// that this one keeps reading: a `notifications/cancelled` stops the `tools/call` it
    /// names at once, and a call that asked for progress sends `notifications/progress`
    /// while it runs.
    pub fn serve<R: BufRead, W: Write + Send>(&self, mut input: R, output: W) -> Result<()> {
        let (requests, queued) = std::sync::mpsc::channel::<Option<Vec<u8>>>();
        let (lines, written) = std::sync::mpsc::channel::<String>();
        let broken = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            let writer = scope.spawn(|| write_lines(written, output, &broken));
            let worker = {
                let lines = lines.clone();
                scope.spawn(move || {
                    let notify: Notify = {
                        let lines = Mutex::new(lines.clone());
                        Arc::new(move |message| {
                            if let Ok(lines) = lines.lock() {
                                let _ = lines.send(message);
                            }
                        })
                    };
                    for line in queued {
                        if let Some(reply) = self.answer_line(line.as_deref(), Some(&notify)) {
                            let _ = lines.send(reply);
                        }
                    }
                })
            };
            drop(lines);
            let mut line = Vec::new();
            let read = loop {
                if broken.load(std::sync::atomic::Ordering::Relaxed) {
                    break Ok(());
                }
                line.clear();
                let too_long = match read_line(&mut input, &mut line, MAX_MESSAGE_BYTES) {
                    Ok(Some(too_long)) => too_long,
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(Error::io("MCP input", e)),
                };
                let line = if too_long { None } else { Some(line.clone()) };
                match line {
                    // A cancellation cannot wait behind the request it cancels.
                    Some(line) if is_cancellation(&line) => {
                        self.answer_line(Some(&line), None);
                    }
                    line => {
                        let _ = requests.send(line);
                    }
                }
            };
            drop(requests);
            let _ = worker.join();
            let written = writer
                .join()
                .unwrap_or_else(|_| Err(Error::Internal("MCP writer panicked".into())));
            read.and(written)
        })
    }

    /// The reply to one line of input (`None`: one that was too long).
    fn answer_line(&self, line: Option<&[u8]>, notify: Option<&Notify>) -> Option<String> {
        let Some(line) = line else {
            return Some(
                error_reply(
                    Value::Null,
                    INVALID_REQUEST,
                    format!("Invalid Request: message longer than {MAX_MESSAGE_BYTES} bytes"),
                )
                .to_string(),
            );
        };
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_notifying(text, notify.cloned()),
            Err(e) => Some(
                error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    format!("Parse error: not UTF-8 ({e})"),
                )
                .to_string(),
            ),
        }
    }
}

/// Whether `line` is a `notifications/cancelled` message (a quick look before parsing).
fn is_cancellation(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"notifications/cancelled").is_some()
        && serde_json::from_slice::<Value>(line).is_ok_and(|v| {
            v.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
        })
}

/// Write each line of `lines` to `output`, flushed one by one (the client wakes up once
/// per whole line), until every sender is gone. A closed `output` ends quietly, and sets
/// `broken` so the reader stops too.
fn write_lines<W: Write>(
    lines: std::sync::mpsc::Receiver<String>,
    mut output: W,
    broken: &std::sync::atomic::AtomicBool,
) -> Result<()> {
    for mut line in lines {
        line.push('\n');
        match output
            .write_all(line.as_bytes())
            .and_then(|()| output.flush())
        {
            Ok(()) => {}
            Err(e) => {
                broken.store(true, std::sync::atomic::Ordering::Relaxed);
                return if e.kind() == ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    Err(Error::io("MCP output", e))
                };
            }
        }
    }
    Ok(())
}

/// Read one line (without its newline) into `line`, keeping at most `limit` bytes.
/// `Ok(None)` at the end of input; `Ok(Some(true))` when the line was longer than
/// `limit` (it is skipped whole).
fn read_line<R: BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(too_long));
        }
        read_any = true;
        let (chunk, used, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long && line.len() + chunk.len() <= limit {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line.clear();
        }
        input.consume(used);
        if done {
            return Ok(Some(too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let mut input = std::io::Cursor::new(b"short\nmuch too long\nok".to_vec());
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), Some(false));
        assert_eq!(line, b"short");
        line.clear();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), Some(true));
        line.clear();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), Some(false));
        assert_eq!(line, b"ok");
        line.clear();
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap(), None);
    }
}
