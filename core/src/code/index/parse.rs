//! One file of a run, on a worker thread: read, hash, parse.

use super::too_large;
use super::{Job, Outcome};
use crate::code::extract::{ExtractedSymbol, extract_source};
use crate::code::text::name_tokens;

/// Bytes looked at for a NUL to call a file binary.
const BINARY_SNIFF: usize = 8000;

/// Read, hash and parse one file (on a worker thread).
pub(super) fn process(job: &Job, max_size: u64) -> Outcome {
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => return Outcome::Skipped(format!("{}: cannot read: {e}", job.rel)),
    };
    let meta = std::fs::metadata(&job.path).ok();
    let mtime = meta.as_ref().map_or(0, crate::time::mtime_secs);
    let size = bytes.len() as i64;
    if bytes.len() as u64 > max_size {
        return Outcome::Skipped(too_large(&job.rel, bytes.len() as u64, max_size));
    }
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_SNIFF)]).is_some() {
        return Outcome::Skipped(format!("{}: binary file, skipped", job.rel));
    }
    let hash = crate::hash::sha256_hex(&bytes);
    if job.known.as_ref().is_some_and(|(_, h)| *h == hash) {
        return Outcome::Same { mtime, size };
    }
    let text = String::from_utf8_lossy(&bytes);
    match extract_source(job.lang, &job.ext, &text) {
        Ok(file) => {
            let mut tokens = Vec::new();
            collect_tokens(&file.symbols, &mut tokens);
            Outcome::Parsed {
                hash,
                mtime,
                size,
                file,
                tokens,
                bytes: bytes.len() as u64,
            }
        }
        Err(e) => Outcome::Skipped(format!("{}: {e}", job.rel)),
    }
}

/// The `name_tokens` of `symbols` and their children, depth first (the order they are
/// written in).
fn collect_tokens(symbols: &[ExtractedSymbol], out: &mut Vec<String>) {
    for symbol in symbols {
        out.push(name_tokens(&symbol.name));
        collect_tokens(&symbol.children, out);
    }
}
