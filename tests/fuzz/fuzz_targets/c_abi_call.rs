//! The C ABI's JSON dispatch: `cc_search_call` (the `ffi` crate's own source, compiled in)
//! with a fuzzed operation name and parameter text, on one engine over a sandboxed data
//! root (`common`). The first byte picks an operation of the table (most inputs) or says
//! the name is fuzzed too (up to a NUL); the rest is the parameters, as raw bytes (invalid
//! UTF-8 included). Calls naming paths outside the sandbox are skipped.
//!
//! - no panic (the library's own panic guard is not reached: libFuzzer aborts first);
//! - success: a JSON object comes back; failure: no output, the handle's and the
//!   thread's last error say why;
//! - a name that is not UTF-8, or parameters that are not, give `INVALID_UTF8`; an unknown
//!   name `UNKNOWN_OPERATION`; parameters that are not a JSON object (nor blank or `null`)
//!   `INVALID_REQUEST`.
#![no_main]

mod common;
#[allow(dead_code, clippy::all)]
#[path = "../../../ffi/src/lib.rs"]
mod ffi;

use std::ffi::{CStr, CString, c_char};
use std::ptr;
use std::sync::OnceLock;

use ffi::cc_search_status::{self, *};
use libfuzzer_sys::fuzz_target;

/// The table's operations, cheapest first in spirit; index walks stay in the sandbox.
const OPS: &[&str] = &[
    "files.suggest",
    "files.refresh",
    "grep.search",
    "code.search_symbols",
    "code.index_repository",
    "code.get_overview",
    "code.get_file_symbols",
    "code.get_symbol_detail",
    "code.get_references",
    "code.get_dependencies",
    "code.update_files",
    "code.index_status",
    "code.list_repos",
    "code.delete_repos",
    "docs.index",
    "docs.query",
    "notes.index",
    "notes.query",
    "sessions.index",
    "sessions.search",
    "sessions.chunk",
    "sessions.status",
    "embed.text",
    "claude.install",
];

struct Handle(*mut ffi::cc_search_engine);
// SAFETY: the handle is documented as usable from any thread.
unsafe impl Send for Handle {}
unsafe impl Sync for Handle {}

fn engine() -> *const ffi::cc_search_engine {
    static ENGINE: OnceLock<Handle> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let sandbox = common::sandbox();
            let options =
                CString::new(serde_json::json!({ "home": sandbox.home }).to_string()).unwrap();
            let mut out = ptr::null_mut();
            // SAFETY: valid C string and out pointer.
            let status = unsafe { ffi::cc_search_engine_open(options.as_ptr(), &mut out) };
            assert_eq!(status, CC_SEARCH_OK);
            Handle(out)
        })
        .0
}

/// Take a C string's text and free it; `None` for NULL.
fn take(s: *mut c_char) -> Option<String> {
    if s.is_null() {
        return None;
    }
    // SAFETY: a string from the library, freed once.
    let text = unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned();
    unsafe { ffi::cc_search_string_free(s) };
    Some(text)
}

/// Bytes up to the first NUL, as C sees them.
fn c_string(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).unwrap()
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (op, params): (Vec<u8>, &[u8]) = if selector < 0xF0 {
        (OPS[selector as usize % OPS.len()].as_bytes().to_vec(), rest)
    } else {
        match rest.iter().position(|&b| b == 0) {
            Some(i) => (rest[..i].to_vec(), &rest[i + 1..]),
            None => (rest.to_vec(), &[][..]),
        }
    };
    let (op, params) = (c_string(&op), c_string(params));
    let sandbox = common::sandbox();
    let params_text = params.to_str().ok();
    if params_text.is_some_and(|p| common::leaves_sandbox(p, sandbox)) {
        return;
    }
    let engine = engine();
    let mut out: *mut c_char = ptr::dangling_mut();
    // SAFETY: a live handle, C strings and an out pointer.
    let status: cc_search_status =
        unsafe { ffi::cc_search_call(engine, op.as_ptr(), params.as_ptr(), &mut out) };
    let output = take(out);
    assert_ne!(status, CC_SEARCH_ERR_PANIC);
    assert_ne!(status, CC_SEARCH_ERR_NULL_ARGUMENT);
    if status == CC_SEARCH_OK {
        let json = output.expect("OK without output");
        let value: serde_json::Value = serde_json::from_str(&json).expect("output is JSON");
        assert!(value.is_object(), "output is not an object: {json}");
    } else {
        assert!(output.is_none(), "output on failure");
        // SAFETY: a live handle; NULL for this thread's.
        let on_handle = take(unsafe { ffi::cc_search_last_error(engine) });
        let on_thread = take(unsafe { ffi::cc_search_last_error(ptr::null()) });
        let message = on_handle.expect("no last error on the handle");
        assert!(!message.is_empty());
        assert_eq!(on_thread.as_deref(), Some(message.as_str()));
    }
    let (Ok(name), Some(params)) = (op.to_str(), params_text) else {
        assert_eq!(status, CC_SEARCH_ERR_INVALID_UTF8);
        return;
    };
    if !cc_search::OPERATIONS.iter().any(|o| o.name == name) {
        assert_eq!(status, CC_SEARCH_ERR_UNKNOWN_OPERATION, "{name:?}");
        return;
    }
    let trimmed = params.trim();
    let object_or_default = trimmed.is_empty()
        || matches!(
            serde_json::from_str::<serde_json::Value>(trimmed),
            Ok(serde_json::Value::Object(_) | serde_json::Value::Null)
        );
    if !object_or_default {
        assert_eq!(status, CC_SEARCH_ERR_INVALID_REQUEST, "{name} {params:?}");
    }
});
