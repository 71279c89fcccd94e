//! Node and Bun bindings of cc-search.
//!
//! The native surface is deliberately small — one class, plain values and an
//! [`AsyncTask`] — and carries no search logic: every operation goes through the core's
//! operation table by name, with JSON in and JSON out. The hand-written `index.js` turns
//! that into an idiomatic JavaScript API.
//!
//! Errors thrown into JavaScript carry `code` equal to the core's error code
//! (`invalid_request`, `unknown_operation`, `io`, `database`, `internal`) and the core's
//! message. A panic in the core is caught here and reported as `internal`; it never
//! unwinds into the JavaScript engine.
#![deny(missing_docs)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::{AsyncTask, FnArgs, JsError, Uint8Array};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Status, Task};
use napi_derive::napi;

use cc_search::ErrorCode;

/// An error for JavaScript whose `code` is the core's error code.
type CodedError = napi::Error<String>;

/// A failure from the core, kept as plain data so it can cross threads.
#[derive(Debug, Clone)]
pub struct Failure {
    code: ErrorCode,
    message: String,
}

impl From<cc_search::Error> for Failure {
    fn from(error: cc_search::Error) -> Self {
        Failure {
            code: error.error_code(),
            message: error.to_string(),
        }
    }
}

impl From<Failure> for CodedError {
    fn from(failure: Failure) -> Self {
        napi::Error::new(failure.code.as_str().to_string(), failure.message)
    }
}

/// Run `f`, turning a panic into an `internal` failure.
fn guarded<T>(what: &str, f: impl FnOnce() -> cc_search::Result<T>) -> Result<T, Failure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(Failure::from),
        Err(payload) => {
            let detail = cc_search::error::panic_message(payload.as_ref());
            Err(Failure {
                code: ErrorCode::Internal,
                message: format!("internal error: {what} panicked: {detail}"),
            })
        }
    }
}

/// A cc-search engine: one data root, its configuration and its databases.
///
/// Safe to use from many concurrent `callAsync` calls: the core engine is shared, and
/// each call runs on the libuv thread pool.
#[napi]
pub struct Engine {
    inner: Arc<cc_search::Engine>,
    /// The MCP session of this engine (`mcpStart`, `mcpHandle`).
    mcp: Mutex<Option<Arc<cc_search::mcp::Server>>>,
}

#[napi]
impl Engine {
    /// Open an engine. `home` is the data root (default: `$CC_SEARCH_HOME`, else the XDG
    /// data directory); `configPath` an explicit configuration file. An invalid
    /// configuration file does not fail: the defaults apply and `warnings()` says why.
    #[napi(constructor)]
    pub fn new(home: Option<String>, config_path: Option<String>) -> Result<Self, CodedError> {
        let options = cc_search::EngineOptions {
            home: home.filter(|h| !h.is_empty()).map(PathBuf::from),
            config_path: config_path.filter(|p| !p.is_empty()).map(PathBuf::from),
        };
        let engine = guarded("open", || cc_search::Engine::open(options))?;
        Ok(Engine {
            inner: Arc::new(engine),
            mcp: Mutex::new(None),
        })
    }

    /// Start a new MCP session whose tools read inside `roots` (the first is the
    /// project); `null` or empty: `$CLAUDE_PROJECT_DIR`, else the current directory. The
    /// configured `[index] roots` are added. Returns the server's warnings.
    #[napi]
    pub fn mcp_start(
        &self,
        roots: Option<Vec<String>>,
        tools: Option<Vec<String>>,
        max_tokens: Option<u32>,
        structured: Option<bool>,
    ) -> Result<Vec<String>, CodedError> {
        let options = cc_search::mcp::ServerOptions {
            roots: roots
                .unwrap_or_default()
                .into_iter()
                .map(PathBuf::from)
                .collect(),
            tools: tools.unwrap_or_default(),
            max_tokens: max_tokens.map(|n| n as usize),
            structured,
        };
        let engine = Arc::clone(&self.inner);
        let server = guarded("mcp", || cc_search::mcp::Server::new(engine, options))?;
        let warnings = server.warnings().to_vec();
        let mut slot = self.mcp.lock().map_err(|_| Failure {
            code: ErrorCode::Internal,
            message: "internal error: MCP lock poisoned".to_string(),
        })?;
        *slot = Some(Arc::new(server));
        Ok(warnings)
    }

    /// The names of the tools the MCP session offers (empty before it starts).
    #[napi]
    pub fn mcp_tools(&self) -> Vec<String> {
        self.mcp
            .lock()
            .ok()
            .and_then(|slot| slot.clone())
            .map(|server| {
                server
                    .tool_names()
                    .into_iter()
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Answer one MCP message (a line of JSON-RPC); `null` for a notification. Starts
    /// the session with the default roots when `mcpStart` was not called.
    #[napi]
    pub fn mcp_handle(&self, message: String) -> Result<Option<String>, CodedError> {
        let started = self.mcp.lock().ok().and_then(|slot| slot.clone());
        let server = match started {
            Some(server) => server,
            None => {
                self.mcp_start(None, None, None, None)?;
                self.mcp
                    .lock()
                    .ok()
                    .and_then(|slot| slot.clone())
                    .ok_or_else(|| Failure {
                        code: ErrorCode::Internal,
                        message: "internal error: MCP server missing".to_string(),
                    })?
            }
        };
        Ok(guarded("mcp", || Ok(server.handle(&message)))?)
    }

    /// Run the operation `op` with JSON parameters (`""` or `"null"` for the defaults)
    /// and return the JSON response. Blocks the calling thread.
    #[napi]
    pub fn call(&self, op: String, params_json: String) -> Result<String, CodedError> {
        let engine = &self.inner;
        Ok(guarded(&op, || engine.call(&op, &params_json))?)
    }

    /// Like `call`, on the libuv thread pool; resolves to the JSON response. `cancel`
    /// stops it at its next checkpoint (it then rejects with code `cancelled`);
    /// `progress(stage, done, total)` is called on the JS thread as it reports progress.
    #[napi(
        ts_args_type = "op: string, paramsJson: string, cancel?: CancelToken | null, progress?: ((stage: string, done: number, total: number) => void) | null",
        ts_return_type = "Promise<string>"
    )]
    pub fn call_async(
        &self,
        op: String,
        params_json: String,
        cancel: Option<&CancelToken>,
        progress: Option<ProgressFn>,
    ) -> AsyncTask<CallTask> {
        AsyncTask::new(CallTask {
            engine: Arc::clone(&self.inner),
            op,
            params_json,
            cancel: cancel.map(|c| c.inner.clone()),
            progress,
        })
    }

    /// Ask every call running on this engine now to stop at its next checkpoint; each
    /// fails with code `cancelled`, keeping what it had committed.
    #[napi]
    pub fn cancel_running(&self) {
        self.inner.cancel_running();
    }

    /// Answer the Claude Code hook `name` (`file-suggestion`, `session-start`) for the
    /// bytes of its stdin, as the core's `files::hook::run` does. The hook's own
    /// failures are in `error`; only an unknown `name` throws (`invalid_request`).
    /// `projectDir` defaults to `$CLAUDE_PROJECT_DIR`, else the current directory.
    #[napi]
    pub fn hook(
        &self,
        name: String,
        input: Uint8Array,
        project_dir: Option<String>,
    ) -> Result<HookAnswer, CodedError> {
        use cc_search::files::hook;
        let which = hook::Hook::from_name(&name).map_err(Failure::from)?;
        let project_dir = project_dir.filter(|d| !d.is_empty()).map(PathBuf::from);
        let answer = hook::run(&self.inner, which, &input, project_dir.as_deref());
        Ok(HookAnswer {
            stdout: answer.stdout,
            warnings: answer.warnings,
            error: answer.error,
            refresh: answer.refresh.map(|refresh| HookRefresh {
                project_dir: refresh.project_dir.to_string_lossy().into_owned(),
                log: refresh.log.to_string_lossy().into_owned(),
            }),
        })
    }

    /// Warnings from opening the engine (an invalid configuration file, for instance).
    #[napi]
    pub fn warnings(&self) -> Vec<String> {
        self.inner.warnings().to_vec()
    }

    /// The data root.
    #[napi(getter)]
    pub fn home(&self) -> String {
        self.inner.home().to_string_lossy().into_owned()
    }
}

/// What a Claude Code hook answers (`Engine#hook`).
#[napi(object)]
pub struct HookAnswer {
    /// The hook's whole stdout (empty, or lines each ending in a newline).
    pub stdout: String,
    /// Lines for stderr, after stdout is written (one line each, no prefix).
    pub warnings: Vec<String>,
    /// Why the hook could not do its work (one line); stdout is then empty.
    pub error: Option<String>,
    /// A refresh to start now in a detached background process.
    pub refresh: Option<HookRefresh>,
}

/// A refresh of a project's session roots a hook asks for.
#[napi(object)]
pub struct HookRefresh {
    /// The project, absolute.
    pub project_dir: String,
    /// The log to append the refresh's output to (already rotated).
    pub log: String,
}

/// Whether the bytes of a hook's stdin read so far hold one complete JSON object, so
/// reading may stop.
#[napi]
pub fn hook_input_complete(input: Uint8Array) -> bool {
    cc_search::files::hook::input_complete(&input)
}

/// Most bytes of a hook's stdin read; the rest is ignored.
#[napi]
pub const HOOK_INPUT_LIMIT: u32 = cc_search::files::hook::MAX_INPUT as u32;

/// A JavaScript progress callback, called from the libuv pool through the event loop.
/// Its three values are the function's three arguments (`FnArgs`), not one array.
type ProgressArgs = FnArgs<(String, f64, f64)>;
type ProgressFn = ThreadsafeFunction<ProgressArgs, (), ProgressArgs, Status, false>;

/// A request to stop a `callAsync` (an `AbortSignal`'s, in `index.js`).
#[napi]
pub struct CancelToken {
    inner: cc_search::progress::Cancel,
}

#[napi]
impl CancelToken {
    /// A token not yet set.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        CancelToken {
            inner: cc_search::progress::Cancel::new(),
        }
    }

    /// Stop the calls given this token.
    #[napi]
    pub fn cancel(&self) {
        self.inner.cancel();
    }
}

/// One `callAsync`: runs the operation on the libuv pool, then settles the promise.
pub struct CallTask {
    engine: Arc<cc_search::Engine>,
    op: String,
    params_json: String,
    cancel: Option<cc_search::progress::Cancel>,
    progress: Option<ProgressFn>,
}

impl Task for CallTask {
    type Output = Result<String, Failure>;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let engine = &self.engine;
        let (op, params) = (&self.op, &self.params_json);
        let mut watch = cc_search::progress::Watch::new();
        if let Some(cancel) = &self.cancel {
            watch = watch.cancel(cancel);
        }
        if let Some(progress) = self.progress.take() {
            watch = watch.progress(move |p| {
                progress.call(
                    (p.stage.to_string(), p.done as f64, p.total as f64).into(),
                    ThreadsafeFunctionCallMode::NonBlocking,
                );
            });
        }
        Ok(guarded(op, || engine.call_watched(op, params, watch)))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        match output {
            Ok(json) => Ok(json),
            Err(failure) => {
                // Build the JavaScript error here, on the JS thread, so the rejection
                // keeps the core's code rather than a generic napi status.
                let error = JsError::from(CodedError::from(failure)).into_unknown(env);
                Err(napi::Error::from(error))
            }
        }
    }
}

/// The version of cc-search (`MAJOR.MINOR.PATCH`).
#[napi]
pub fn version() -> String {
    cc_search::VERSION.to_string()
}

/// The operation table as JSON: `[{name, summary, request, response}]`, with JSON
/// Schemas of each operation's parameters and result.
#[napi]
pub fn operations() -> Result<String, CodedError> {
    Ok(guarded("operations", || {
        Ok(cc_search::registry::describe().to_string())
    })?)
}

/// Operation `op`'s result (its JSON text) as an agent reads it (`cc_search::agent`):
/// short keys, each file listed once, within `max_tokens` when given — what the MCP
/// tools answer.
#[napi]
pub fn agent_answer(
    op: String,
    result_json: String,
    max_tokens: Option<u32>,
) -> Result<String, CodedError> {
    Ok(guarded("agentAnswer", || {
        cc_search::agent::answer(&op, &result_json, max_tokens.map(|n| n as usize))
    })?)
}

/// Every error code an error thrown by this module can carry.
#[napi]
pub fn error_codes() -> Vec<String> {
    cc_search::ERROR_CODES
        .iter()
        .map(|c| c.to_string())
        .collect()
}
