//! C ABI of cc-search.
//!
//! One engine handle, one call that runs any operation of the table by name with JSON
//! parameters and returns JSON, a status code from every fallible call, and the message
//! of the last error kept per handle and per thread. Panics never cross the boundary.
//!
//! The header `include/cc_search.h` is generated from this file by cbindgen.
#![allow(non_camel_case_types)]
#![deny(missing_docs)]

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::{Arc, Mutex};

use cc_search::mcp::{Server, ServerOptions};
use cc_search::progress::Watch;
use cc_search::{Engine, EngineOptions, Error, ErrorCode};

/// Major version of the library (from Cargo.toml; a test checks they agree).
pub const CC_SEARCH_VERSION_MAJOR: u32 = 0;
/// Minor version of the library.
pub const CC_SEARCH_VERSION_MINOR: u32 = 1;
/// Patch version of the library.
pub const CC_SEARCH_VERSION_PATCH: u32 = 0;

/// The outcome of a call. `CC_SEARCH_OK` is zero; every error is non-zero.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum cc_search_status {
    /// Success.
    CC_SEARCH_OK = 0,
    /// A required pointer argument was NULL.
    CC_SEARCH_ERR_NULL_ARGUMENT = 1,
    /// A string argument was not valid UTF-8.
    CC_SEARCH_ERR_INVALID_UTF8 = 2,
    /// The parameters were malformed JSON, or a field was missing, mistyped or out of range.
    CC_SEARCH_ERR_INVALID_REQUEST = 3,
    /// No operation has that name.
    CC_SEARCH_ERR_UNKNOWN_OPERATION = 4,
    /// A file or directory could not be read or written.
    CC_SEARCH_ERR_IO = 5,
    /// A database operation failed.
    CC_SEARCH_ERR_DATABASE = 6,
    /// An internal error (a bug); the message says more.
    CC_SEARCH_ERR_INTERNAL = 7,
    /// The library panicked; the call had no effect the caller can rely on.
    CC_SEARCH_ERR_PANIC = 8,
    /// The call stopped because `cc_search_cancel` asked it to; what it had committed is
    /// kept, and a later run does the rest.
    CC_SEARCH_ERR_CANCELLED = 9,
}

use cc_search_status::*;

/// An engine: the data root, its configuration and open databases.
///
/// Thread safety: a handle may be used from many threads at once; calls on one handle
/// are safe to overlap. `cc_search_engine_free` must not overlap any other call on the
/// same handle, and the handle must not be used after it.
pub struct cc_search_engine {
    engine: Arc<Engine>,
    last_error: Mutex<Option<CString>>,
    /// The engine's MCP session, started by the first `cc_search_mcp_*` call.
    mcp: Mutex<Option<Arc<Server>>>,
}

impl cc_search_engine {
    /// The engine's MCP server, started on first use with the default roots.
    fn mcp_server(&self) -> Result<Arc<Server>, Failure> {
        let mut slot = self
            .mcp
            .lock()
            .map_err(|_| Failure::from(Error::Internal("MCP server lock poisoned".into())))?;
        if let Some(server) = slot.as_ref() {
            return Ok(Arc::clone(server));
        }
        let server = Arc::new(Server::new(
            Arc::clone(&self.engine),
            ServerOptions::default(),
        )?);
        *slot = Some(Arc::clone(&server));
        Ok(server)
    }
}

thread_local! {
    static THREAD_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

struct Failure {
    status: cc_search_status,
    message: String,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let status = match e.error_code() {
            ErrorCode::InvalidRequest => CC_SEARCH_ERR_INVALID_REQUEST,
            ErrorCode::UnknownOperation => CC_SEARCH_ERR_UNKNOWN_OPERATION,
            ErrorCode::Io => CC_SEARCH_ERR_IO,
            ErrorCode::Database => CC_SEARCH_ERR_DATABASE,
            ErrorCode::Internal => CC_SEARCH_ERR_INTERNAL,
            ErrorCode::Cancelled => CC_SEARCH_ERR_CANCELLED,
        };
        Failure {
            status,
            message: e.to_string(),
        }
    }
}

impl Failure {
    fn null(what: &str) -> Self {
        Failure {
            status: CC_SEARCH_ERR_NULL_ARGUMENT,
            message: format!("`{what}` must not be NULL"),
        }
    }
}

fn to_cstring(s: String) -> CString {
    CString::new(s).unwrap_or_else(|e| {
        let mut bytes = e.into_vec();
        bytes.retain(|&b| b != 0);
        CString::new(bytes).unwrap_or_default()
    })
}

/// Run `f`, catching panics; on failure record the message on `engine` (when given) and
/// on this thread.
fn guard(
    engine: Option<&cc_search_engine>,
    f: impl FnOnce() -> Result<(), Failure>,
) -> cc_search_status {
    let outcome = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let detail = cc_search::error::panic_message(panic.as_ref());
        Err(Failure {
            status: CC_SEARCH_ERR_PANIC,
            message: format!("panic inside cc-search: {detail}"),
        })
    });
    match outcome {
        Ok(()) => CC_SEARCH_OK,
        Err(failure) => {
            let message = to_cstring(failure.message);
            if let Some(engine) = engine
                && let Ok(mut slot) = engine.last_error.lock()
            {
                *slot = Some(message.clone());
            }
            THREAD_ERROR.with(|slot| *slot.borrow_mut() = Some(message));
            failure.status
        }
    }
}

/// Read an optional C string argument.
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string valid for reads.
unsafe fn opt_str<'a>(ptr: *const c_char, what: &str) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL and NUL-terminated per the caller's contract.
    let cstr = unsafe { CStr::from_ptr(ptr) };
    cstr.to_str().map(Some).map_err(|e| Failure {
        status: CC_SEARCH_ERR_INVALID_UTF8,
        message: format!("`{what}` is not valid UTF-8: {e}"),
    })
}

/// Read a required C string argument.
///
/// # Safety
/// As [`opt_str`].
unsafe fn req_str<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    // SAFETY: forwarded contract.
    unsafe { opt_str(ptr, what) }?.ok_or_else(|| Failure::null(what))
}

/// Hand a string to C through `out`.
///
/// # Safety
/// `out` is non-NULL and valid for a pointer write.
unsafe fn give(out: *mut *mut c_char, s: String) {
    // SAFETY: per the caller's contract.
    unsafe { *out = to_cstring(s).into_raw() };
}

/// Open an engine.
///
/// `options_json` may be NULL (all defaults) or a JSON object with optional `"home"` (the
/// data root; default `$CC_SEARCH_HOME`, else the XDG data directory) and `"config_path"`.
/// On success `*out` receives a handle to release with `cc_search_engine_free`; on failure
/// `*out` is set to NULL and `cc_search_last_error(NULL)` says why.
///
/// # Safety
/// `options_json` is NULL or a NUL-terminated string; `out` is a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_engine_open(
    options_json: *const c_char,
    out: *mut *mut cc_search_engine,
) -> cc_search_status {
    guard(None, || {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: `out` is non-NULL and valid per the contract.
        unsafe { *out = ptr::null_mut() };
        // SAFETY: per the contract.
        let text = unsafe { opt_str(options_json, "options_json") }?;
        let options: EngineOptions = match text.map(str::trim) {
            None | Some("") | Some("null") => EngineOptions::default(),
            Some(text) => serde_json::from_str(text).map_err(|e| Failure {
                status: CC_SEARCH_ERR_INVALID_REQUEST,
                message: format!("invalid engine options: {e}"),
            })?,
        };
        let engine = Engine::open(options)?;
        let handle = Box::new(cc_search_engine {
            engine: Arc::new(engine),
            last_error: Mutex::new(None),
            mcp: Mutex::new(None),
        });
        // SAFETY: as above.
        unsafe { *out = Box::into_raw(handle) };
        Ok(())
    })
}

/// Release an engine. NULL is accepted and ignored.
///
/// # Safety
/// `engine` is NULL or a handle from `cc_search_engine_open` not yet freed, and no other
/// call on it is running or will run.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_engine_free(engine: *mut cc_search_engine) {
    if engine.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: created by Box::into_raw in cc_search_engine_open, freed once.
        drop(unsafe { Box::from_raw(engine) });
    }));
}

/// Run the operation named `operation` (e.g. `"files.suggest"`) with JSON parameters.
///
/// `params_json` may be NULL or empty (all defaults). On success `*out_json` receives the
/// JSON response, to release with `cc_search_string_free`; on failure it is set to NULL and
/// the status says what kind of failure, `cc_search_last_error` the details.
///
/// # Safety
/// `engine` is a live handle; `operation` and `params_json` are NULL or NUL-terminated
/// strings; `out_json` is a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_call(
    engine: *const cc_search_engine,
    operation: *const c_char,
    params_json: *const c_char,
    out_json: *mut *mut c_char,
) -> cc_search_status {
    // SAFETY: the same contract, without a progress callback.
    unsafe {
        cc_search_call_with_progress(
            engine,
            operation,
            params_json,
            None,
            ptr::null_mut(),
            out_json,
        )
    }
}

/// Called with the progress of a long call (see `cc_search_call_with_progress`): `stage`
/// (`"walk"`, `"parse"`, `"embed"`; valid only during the call), `done` units of `total`
/// (0: not known yet), and the caller's `user_data`. It runs on the calling thread, inside
/// the call; it may call `cc_search_cancel`.
pub type cc_search_progress_fn = Option<
    unsafe extern "C" fn(stage: *const c_char, done: u64, total: u64, user_data: *mut c_void),
>;

/// `cc_search_call`, with `progress` (NULL: none) called as the operation reports its
/// progress (`files.refresh`, `code.index_repository`, `docs.index`, `notes.index`,
/// `sessions.index`).
///
/// # Safety
/// As `cc_search_call`; `progress`, when not NULL, is safe to call with `user_data`
/// during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_call_with_progress(
    engine: *const cc_search_engine,
    operation: *const c_char,
    params_json: *const c_char,
    progress: cc_search_progress_fn,
    user_data: *mut c_void,
    out_json: *mut *mut c_char,
) -> cc_search_status {
    // SAFETY: NULL or a live handle per the contract.
    let handle = unsafe { engine.as_ref() };
    guard(handle, || {
        if out_json.is_null() {
            return Err(Failure::null("out_json"));
        }
        // SAFETY: non-NULL and valid per the contract.
        unsafe { *out_json = ptr::null_mut() };
        let handle = handle.ok_or_else(|| Failure::null("engine"))?;
        // SAFETY: per the contract.
        let operation = unsafe { req_str(operation, "operation") }?;
        // SAFETY: per the contract.
        let params = unsafe { opt_str(params_json, "params_json") }?.unwrap_or("");
        let mut watch = Watch::new();
        if let Some(callback) = progress {
            // The pointer only travels with the call, on this thread.
            let user_data = user_data as usize;
            watch = watch.progress(move |p| {
                let stage = to_cstring(p.stage.to_string());
                // SAFETY: the caller vouches for the callback and its data.
                unsafe { callback(stage.as_ptr(), p.done, p.total, user_data as *mut c_void) };
            });
        }
        let response = handle.engine.call_watched(operation, params, watch)?;
        // SAFETY: checked non-NULL above.
        unsafe { give(out_json, response) };
        Ok(())
    })
}

/// Ask every call running on `engine` now to stop at its next checkpoint (within a
/// fraction of a second); each returns `CC_SEARCH_ERR_CANCELLED`, keeping what it had
/// committed, with its locks released. Calls made afterwards are not affected.
///
/// Async-signal-safe (one atomic add, nothing allocated or locked): a `SIGINT` handler
/// may call it. Returns `CC_SEARCH_ERR_NULL_ARGUMENT` for a NULL `engine`, recording no
/// message.
///
/// # Safety
/// `engine` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_cancel(engine: *const cc_search_engine) -> cc_search_status {
    // SAFETY: NULL or a live handle per the contract.
    match unsafe { engine.as_ref() } {
        Some(handle) => {
            handle.engine.cancel_running();
            CC_SEARCH_OK
        }
        None => CC_SEARCH_ERR_NULL_ARGUMENT,
    }
}

/// The message of the last failed call on `engine`, or — when `engine` is NULL — of the
/// last failed call on this thread (whatever the handle). NULL when there was none.
///
/// The string is a copy owned by the caller: release it with `cc_search_string_free`.
/// Every failing call records its message in both places, so with one handle shared by
/// several threads, `cc_search_last_error(NULL)` gives each thread its own last error.
///
/// # Safety
/// `engine` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_last_error(engine: *const cc_search_engine) -> *mut c_char {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: NULL or a live handle per the contract.
        let message = match unsafe { engine.as_ref() } {
            Some(handle) => handle.last_error.lock().ok().and_then(|slot| slot.clone()),
            None => THREAD_ERROR.with(|slot| slot.borrow().clone()),
        };
        message.map_or(ptr::null_mut(), CString::into_raw)
    }));
    result.unwrap_or(ptr::null_mut())
}

/// Release a string returned by this library. NULL is accepted and ignored.
///
/// # Safety
/// `s` is NULL or a string from this library not yet released.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_string_free(s: *mut c_char) {
    if s.is_null() {
        return;
    }
    // SAFETY: created by CString::into_raw in this library, released once.
    drop(unsafe { CString::from_raw(s) });
}

/// Warnings from opening `engine` (e.g. an invalid configuration file), as a JSON array of
/// strings in `*out_json`, to release with `cc_search_string_free`.
///
/// # Safety
/// `engine` is a live handle; `out_json` is a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_engine_warnings(
    engine: *const cc_search_engine,
    out_json: *mut *mut c_char,
) -> cc_search_status {
    // SAFETY: NULL or a live handle per the contract.
    let handle = unsafe { engine.as_ref() };
    guard(handle, || {
        if out_json.is_null() {
            return Err(Failure::null("out_json"));
        }
        let handle = handle.ok_or_else(|| Failure::null("engine"))?;
        let json = serde_json::to_string(handle.engine.warnings())
            .map_err(|e| Failure::from(Error::Internal(e.to_string())))?;
        // SAFETY: checked non-NULL above.
        unsafe { give(out_json, json) };
        Ok(())
    })
}

/// Every operation as a JSON array of `{"name", "summary", "request", "response"}` with
/// JSON Schemas, in `*out_json`, to release with `cc_search_string_free`.
///
/// # Safety
/// `out_json` is a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_operations(out_json: *mut *mut c_char) -> cc_search_status {
    guard(None, || {
        if out_json.is_null() {
            return Err(Failure::null("out_json"));
        }
        let json = cc_search::registry::describe().to_string();
        // SAFETY: checked non-NULL above.
        unsafe { give(out_json, json) };
        Ok(())
    })
}

/// Start (or restart) the engine's MCP server with options, before `cc_search_mcp_handle`
/// or `cc_search_mcp_serve_stdio` use it.
///
/// `options_json` is NULL (all defaults) or a JSON object with optional `"roots"` (the
/// directories the tools may read, the first being the project; default
/// `$CLAUDE_PROJECT_DIR`, else the current directory), `"tools"` (selectors: `"default"`,
/// `"all"`, a component such as `"code"`, or a tool name; default `[mcp] tools` of the
/// configuration, else `"default"`), `"max_tokens"` (an answer's token budget when a call
/// gives none; default 8000) and `"structured"` (offer `outputSchema` and answer with
/// `structuredContent`; default false). Unknown keys, an unknown tool selector or a root
/// that is not a directory fail with `CC_SEARCH_ERR_INVALID_REQUEST` or `CC_SEARCH_ERR_IO`
/// and leave the running session as it was. A new session forgets the protocol version
/// the previous one agreed.
///
/// # Safety
/// `engine` is a live handle; `options_json` is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_mcp_start(
    engine: *const cc_search_engine,
    options_json: *const c_char,
) -> cc_search_status {
    // SAFETY: NULL or a live handle per the contract.
    let handle = unsafe { engine.as_ref() };
    guard(handle, || {
        let handle = handle.ok_or_else(|| Failure::null("engine"))?;
        // SAFETY: per the contract.
        let text = unsafe { opt_str(options_json, "options_json") }?;
        let options: ServerOptions = match text.map(str::trim) {
            None | Some("") | Some("null") => ServerOptions::default(),
            Some(text) => serde_json::from_str(text).map_err(|e| Failure {
                status: CC_SEARCH_ERR_INVALID_REQUEST,
                message: format!("invalid MCP options: {e}"),
            })?,
        };
        let server = Arc::new(Server::new(Arc::clone(&handle.engine), options)?);
        let mut slot = handle
            .mcp
            .lock()
            .map_err(|_| Failure::from(Error::Internal("MCP server lock poisoned".into())))?;
        *slot = Some(server);
        Ok(())
    })
}

/// Answer one MCP message (JSON-RPC 2.0, one line of JSON without its newline) as the
/// engine's MCP server: `initialize`, `ping`, `tools/list`, `tools/call`.
///
/// On `CC_SEARCH_OK`, `*out_reply` receives the reply (one line of JSON, to release with
/// `cc_search_string_free`), or NULL when there is none: the message was a notification,
/// a response or blank. Protocol errors (unparseable JSON, an unknown method) and failing
/// tools are replies, not statuses; a status other than `CC_SEARCH_OK` means the call
/// itself failed (a NULL argument, a message that is not UTF-8, a project directory that
/// cannot be read).
///
/// The server starts on the first `cc_search_mcp_*` call on `engine` (with the defaults
/// of `cc_search_mcp_start` unless that was called) and keeps its session (the
/// negotiated protocol version) for later calls. Its tools read only inside the project
/// (`$CLAUDE_PROJECT_DIR`, else the current directory, at that first call) and the
/// configured `[index] roots`. Calls may come from several threads at once; they
/// share that session.
///
/// # Safety
/// `engine` is a live handle; `message` is NULL or a NUL-terminated string; `out_reply` is
/// a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_mcp_handle(
    engine: *const cc_search_engine,
    message: *const c_char,
    out_reply: *mut *mut c_char,
) -> cc_search_status {
    // SAFETY: NULL or a live handle per the contract.
    let handle = unsafe { engine.as_ref() };
    guard(handle, || {
        if out_reply.is_null() {
            return Err(Failure::null("out_reply"));
        }
        // SAFETY: non-NULL and valid per the contract.
        unsafe { *out_reply = ptr::null_mut() };
        let handle = handle.ok_or_else(|| Failure::null("engine"))?;
        // SAFETY: per the contract.
        let message = unsafe { req_str(message, "message") }?;
        let server = handle.mcp_server()?;
        if let Some(reply) = server.handle(message) {
            // SAFETY: checked non-NULL above.
            unsafe { give(out_reply, reply) };
        }
        Ok(())
    })
}

/// Run the engine's MCP server on the process's stdin and stdout (file descriptors zero
/// and one) until stdin ends, one JSON-RPC message a line each way, flushing every reply.
/// Flush any buffered C `stdout` output before calling it. Returns `CC_SEARCH_OK` at the
/// end of input (or when the client closes stdout), `CC_SEARCH_ERR_IO` when reading or
/// writing fails. The server is the one `cc_search_mcp_handle` uses.
///
/// # Safety
/// `engine` is a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cc_search_mcp_serve_stdio(
    engine: *const cc_search_engine,
) -> cc_search_status {
    // SAFETY: NULL or a live handle per the contract.
    let handle = unsafe { engine.as_ref() };
    guard(handle, || {
        let handle = handle.ok_or_else(|| Failure::null("engine"))?;
        let server = handle.mcp_server()?;
        let input = std::io::stdin().lock();
        let output = std::io::stdout();
        server.serve(input, output)?;
        Ok(())
    })
}

/// The library version, `"MAJOR.MINOR.PATCH"`. A static string: do not free it.
#[unsafe(no_mangle)]
pub extern "C" fn cc_search_version() -> *const c_char {
    static VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"",
        };
    VERSION.as_ptr()
}

/// A short constant name for a status value (e.g. `"CC_SEARCH_ERR_IO"`), or
/// `"CC_SEARCH_UNKNOWN_STATUS"` for a value that is not a `cc_search_status`. A static
/// string: do not free it.
#[unsafe(no_mangle)]
pub extern "C" fn cc_search_status_name(status: std::ffi::c_int) -> *const c_char {
    const NAMES: [&CStr; 10] = [
        c"CC_SEARCH_OK",
        c"CC_SEARCH_ERR_NULL_ARGUMENT",
        c"CC_SEARCH_ERR_INVALID_UTF8",
        c"CC_SEARCH_ERR_INVALID_REQUEST",
        c"CC_SEARCH_ERR_UNKNOWN_OPERATION",
        c"CC_SEARCH_ERR_IO",
        c"CC_SEARCH_ERR_DATABASE",
        c"CC_SEARCH_ERR_INTERNAL",
        c"CC_SEARCH_ERR_PANIC",
        c"CC_SEARCH_ERR_CANCELLED",
    ];
    usize::try_from(status)
        .ok()
        .and_then(|i| NAMES.get(i))
        .copied()
        .unwrap_or(c"CC_SEARCH_UNKNOWN_STATUS")
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_macros_match_cargo() {
        let expect = |s: &str| s.parse::<u32>().unwrap();
        assert_eq!(
            CC_SEARCH_VERSION_MAJOR,
            expect(env!("CARGO_PKG_VERSION_MAJOR"))
        );
        assert_eq!(
            CC_SEARCH_VERSION_MINOR,
            expect(env!("CARGO_PKG_VERSION_MINOR"))
        );
        assert_eq!(
            CC_SEARCH_VERSION_PATCH,
            expect(env!("CARGO_PKG_VERSION_PATCH"))
        );
        // SAFETY: a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(cc_search_version()) };
        assert_eq!(v.to_str().unwrap(), cc_search::VERSION);
    }

    #[test]
    fn status_names_follow_the_enum() {
        for (status, name) in [
            (CC_SEARCH_OK, "CC_SEARCH_OK"),
            (CC_SEARCH_ERR_IO, "CC_SEARCH_ERR_IO"),
            (CC_SEARCH_ERR_PANIC, "CC_SEARCH_ERR_PANIC"),
        ] {
            // SAFETY: static NUL-terminated strings.
            let got = unsafe { CStr::from_ptr(cc_search_status_name(status as std::ffi::c_int)) };
            assert_eq!(got.to_str().unwrap(), name);
        }
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(cc_search_status_name(42)) };
        assert_eq!(unknown.to_str().unwrap(), "CC_SEARCH_UNKNOWN_STATUS");
    }
}
