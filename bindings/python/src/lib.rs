//! Python bindings of cc-search: the native module `cc_search._native`.
//!
//! This module only moves JSON between Python and the core's operation table
//! ([`cc_search::Engine::call`]); the idiomatic API (keyword arguments, dicts, a context
//! manager) is the pure-Python package `cc_search` around it.
//!
//! - Every call into the core releases the GIL ([`Python::detach`]), so other Python
//!   threads keep running while an index is built, and several threads can call one
//!   engine at once.
//! - Core errors become exceptions of one hierarchy: `cc_search.Error` (attribute
//!   `code`, one of [`cc_search::ERROR_CODES`]) with one subclass per code, also a
//!   subclass of the matching built-in where there is one (`ValueError`, `OSError`,
//!   `RuntimeError`).
//! - A Rust panic never reaches Python as anything but `cc_search.InternalError`.

use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple, PyType};

use cc_search::ErrorCode;
use cc_search::progress::Watch;

/// The module the exception classes say they belong to: the package re-exports them,
/// so tracebacks and `repr` show `cc_search.InvalidRequestError`.
const EXCEPTIONS_MODULE: &str = "cc_search";

/// The exception class of each core error code: (class name, built-in base, doc). An
/// exhaustive match: a new code does not compile until it has a class.
fn error_class(code: ErrorCode) -> (&'static str, Option<&'static str>, &'static str) {
    match code {
        ErrorCode::InvalidRequest => (
            "InvalidRequestError",
            Some("ValueError"),
            "The request was malformed: invalid JSON, a missing or mistyped field, or a value \
             out of range.",
        ),
        ErrorCode::UnknownOperation => (
            "UnknownOperationError",
            Some("ValueError"),
            "No operation has this name.",
        ),
        ErrorCode::Io => (
            "IoError",
            Some("OSError"),
            "A filesystem operation failed (a missing directory, a permission denied).",
        ),
        ErrorCode::Database => ("DatabaseError", None, "A SQLite operation failed."),
        ErrorCode::Internal => (
            "InternalError",
            Some("RuntimeError"),
            "A bug or an impossible state in cc-search; the message says which.",
        ),
        ErrorCode::Cancelled => (
            "CancelledError",
            None,
            "The operation stopped because it was asked to (`Engine.cancel_running`); what it \
             had committed is kept. Ctrl-C raises `KeyboardInterrupt` instead.",
        ),
    }
}

/// The exception classes, created once per process.
struct ErrorClasses {
    base: Py<PyType>,
    by_code: Vec<(ErrorCode, Py<PyType>)>,
}

static ERROR_TYPES: PyOnceLock<ErrorClasses> = PyOnceLock::new();

fn error_classes(py: Python<'_>) -> PyResult<&ErrorClasses> {
    ERROR_TYPES.get_or_try_init(py, || {
        let builtins = py.import("builtins")?;
        let make_type = builtins.getattr("type")?;
        let new_class = |name: &str, bases: Bound<'_, PyTuple>, doc: &str, code: Option<&str>| {
            let namespace = PyDict::new(py);
            namespace.set_item("__module__", EXCEPTIONS_MODULE)?;
            namespace.set_item("__doc__", doc)?;
            if let Some(code) = code {
                namespace.set_item("code", code)?;
            }
            make_type
                .call1((name, bases, namespace))?
                .cast_into::<PyType>()
                .map(Bound::unbind)
                .map_err(PyErr::from)
        };
        let base = new_class(
            "Error",
            PyTuple::new(py, [py.get_type::<PyException>()])?,
            "Base class of every cc-search error.\n\n`code` is the stable machine-readable \
             code of the error, the same on every surface of cc-search \
             (see `cc_search.error_codes()`); `str(error)` is the message.",
            None,
        )?;
        let mut by_code = Vec::with_capacity(ErrorCode::ALL.len());
        for code in ErrorCode::ALL {
            let (name, builtin, doc) = error_class(code);
            let mut bases = vec![base.bind(py).clone()];
            if let Some(builtin) = builtin {
                bases.push(builtins.getattr(builtin)?.cast_into::<PyType>()?);
            }
            let class = new_class(name, PyTuple::new(py, bases)?, doc, Some(code.as_str()))?;
            by_code.push((code, class));
        }
        Ok(ErrorClasses { base, by_code })
    })
}

/// Build the Python exception of `code` with `message`.
fn error(py: Python<'_>, code: ErrorCode, message: &str) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let classes = error_classes(py)?;
        let class = classes
            .by_code
            .iter()
            .find(|(c, _)| *c == code)
            .map_or(&classes.base, |(_, class)| class);
        let instance = class.bind(py).call1((message,))?;
        instance.setattr("code", code.as_str())?;
        Ok(PyErr::from_value(instance))
    };
    build().unwrap_or_else(|e| e)
}

fn core_error(py: Python<'_>, e: &cc_search::Error) -> PyErr {
    error(py, e.error_code(), &e.to_string())
}

/// Run `f`, turning a panic into an `internal` error.
fn guarded<T>(f: impl FnOnce() -> cc_search::Result<T>) -> cc_search::Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = cc_search::error::panic_message(payload.as_ref());
        Err(cc_search::Error::Internal(format!("panic: {what}")))
    })
}

/// A Python `str` as UTF-8, or an `invalid_request` error naming the argument.
fn utf8(py: Python<'_>, value: &Bound<'_, PyString>, what: &str) -> PyResult<String> {
    value.to_cow().map(|s| s.into_owned()).map_err(|e| {
        error(
            py,
            ErrorCode::InvalidRequest,
            &format!("{what} is not valid UTF-8: {e}"),
        )
    })
}

/// An empty path would silently mean "the current directory": refuse it.
fn non_empty(py: Python<'_>, path: Option<PathBuf>, what: &str) -> PyResult<Option<PathBuf>> {
    match path {
        Some(p) if p.as_os_str().is_empty() => Err(error(
            py,
            ErrorCode::InvalidRequest,
            &format!("{what} is an empty path"),
        )),
        other => Ok(other),
    }
}

/// An open cc-search engine: one data root, its configuration and its databases.
///
/// Safe to share between threads; every call releases the GIL.
#[pyclass(module = "cc_search._native", name = "Engine", frozen)]
struct Engine {
    /// `None` once closed. Calls in flight hold their own reference, so closing never
    /// pulls an engine from under them.
    inner: RwLock<Option<Arc<cc_search::Engine>>>,
    home: OsString,
    config_path: OsString,
    warnings: Vec<String>,
}

impl Engine {
    fn engine(&self, py: Python<'_>) -> PyResult<Arc<cc_search::Engine>> {
        let guard = self
            .inner
            .read()
            .map_err(|_| error(py, ErrorCode::Internal, "engine lock poisoned"))?;
        guard
            .clone()
            .ok_or_else(|| error(py, ErrorCode::InvalidRequest, "the engine is closed"))
    }

    /// `call`'s work: the operation run watched for Ctrl-C and, with `progress`, for
    /// the callback.
    fn call_watched(
        &self,
        py: Python<'_>,
        op: &Bound<'_, PyString>,
        params_json: &Bound<'_, PyString>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        let op = utf8(py, op, "op")?;
        let params = utf8(py, params_json, "params_json")?;
        let engine = self.engine(py)?;
        let raised: Arc<std::sync::Mutex<Option<PyErr>>> = Arc::default();
        let interrupted: Arc<std::sync::Mutex<Option<PyErr>>> = Arc::default();
        let (raised_slot, interrupted_slot) = (Arc::clone(&raised), Arc::clone(&interrupted));
        let result = py.detach(move || {
            guarded(|| {
                let mut watch = Watch::new().poll(move || {
                    // Python runs its signal handlers on the main thread only, between
                    // bytecodes: ask it here, while the core holds this thread.
                    match Python::attach(|py| py.check_signals()) {
                        Ok(()) => false,
                        Err(err) => {
                            if let Ok(mut slot) = interrupted_slot.lock() {
                                slot.get_or_insert(err);
                            }
                            true
                        }
                    }
                });
                if let Some(progress) = progress {
                    let failed = cc_search::progress::Cancel::new();
                    watch = watch.cancel(&failed);
                    watch = watch.progress(move |p| {
                        let Ok(mut slot) = raised_slot.lock() else {
                            return;
                        };
                        if slot.is_some() {
                            return;
                        }
                        *slot = Python::attach(|py| {
                            progress.call1(py, (p.stage, p.done, p.total)).err()
                        });
                        if slot.is_some() {
                            failed.cancel();
                        }
                    });
                }
                engine.call_watched(&op, &params, watch)
            })
        });
        let taken = |slot: &Arc<std::sync::Mutex<Option<PyErr>>>| {
            slot.lock().ok().and_then(|mut slot| slot.take())
        };
        match (taken(&interrupted), taken(&raised), result) {
            (Some(err), _, _) | (None, Some(err), _) => Err(err),
            (None, None, result) => result.map_err(|e| core_error(py, &e)),
        }
    }
}

#[pymethods]
impl Engine {
    /// Open an engine. `home` is the data root (default: `$CC_SEARCH_HOME`, else the
    /// XDG data directory); `config_path` an explicit `config.toml`.
    #[new]
    #[pyo3(signature = (home = None, config_path = None))]
    fn new(py: Python<'_>, home: Option<PathBuf>, config_path: Option<PathBuf>) -> PyResult<Self> {
        let options = cc_search::EngineOptions {
            home: non_empty(py, home, "home")?,
            config_path: non_empty(py, config_path, "config_path")?,
        };
        let engine = py
            .detach(|| guarded(|| cc_search::Engine::open(options)))
            .map_err(|e| core_error(py, &e))?;
        Ok(Engine {
            home: engine.home().as_os_str().to_owned(),
            config_path: engine.config_path().as_os_str().to_owned(),
            warnings: engine.warnings().to_vec(),
            inner: RwLock::new(Some(Arc::new(engine))),
        })
    }

    /// Run the operation `op` with JSON parameters (`""` or `"null"` for the defaults)
    /// and return its JSON result. The GIL is released while the core works.
    ///
    /// `progress`, when given, is called as `progress(stage, done, total)` while the
    /// operation reports progress (with the GIL, on this thread). Should it raise (Ctrl-C
    /// arriving while it runs raises `KeyboardInterrupt` there), it is not called again,
    /// the operation stops at its next checkpoint, and the exception is raised.
    ///
    /// Ctrl-C (a pending `KeyboardInterrupt`, seen on the main thread) stops the operation
    /// at its next checkpoint, within a fraction of a second, and is raised here; what the
    /// operation had committed is kept. `cancel_running` stops it from another thread.
    #[pyo3(signature = (op, params_json, progress = None))]
    fn call(
        &self,
        py: Python<'_>,
        op: &Bound<'_, PyString>,
        params_json: &Bound<'_, PyString>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        self.call_watched(py, op, params_json, progress)
    }

    /// Like `call`, the JSON result as UTF-8 bytes: for a caller that writes it out as
    /// it is (the CLI's grep), a large result is not made into a `str` and back.
    fn call_bytes<'py>(
        &self,
        py: Python<'py>,
        op: &Bound<'_, PyString>,
        params_json: &Bound<'_, PyString>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let json = self.call_watched(py, op, params_json, None)?;
        Ok(PyBytes::new(py, json.as_bytes()))
    }

    /// Ask every call running on this engine now (on any thread) to stop at its next
    /// checkpoint; each raises `CancelledError`, keeping what it had committed. Calls
    /// made afterwards are not affected.
    fn cancel_running(&self, py: Python<'_>) -> PyResult<()> {
        self.engine(py)?.cancel_running();
        Ok(())
    }

    /// Release the engine's databases. Calls still running finish normally; later calls
    /// raise `InvalidRequestError`. Closing twice is harmless.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let taken = self
            .inner
            .write()
            .map_err(|_| error(py, ErrorCode::Internal, "engine lock poisoned"))?
            .take();
        // Dropping closes SQLite connections: do it without the GIL.
        py.detach(move || drop(taken));
        Ok(())
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.inner.read().map(|g| g.is_none()).unwrap_or(true)
    }

    /// Warnings from opening the engine (an invalid configuration file), to show once.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// The data root.
    #[getter]
    fn home(&self) -> OsString {
        self.home.clone()
    }

    /// The configuration file that was (or would have been) read.
    #[getter]
    fn config_path(&self) -> OsString {
        self.config_path.clone()
    }

    /// Answer the Claude Code hook `name` (`file-suggestion`, `session-start`) for the
    /// bytes of its stdin, as `cc_search::files::hook::run` does (the GIL released):
    /// `{"stdout": str, "warnings": [str], "error": str | None, "refresh": None |
    /// {"project_dir": str, "log": str}}`. The hook's own failures are in `error`; an
    /// unknown `name` raises `InvalidRequestError`. `project_dir` defaults to
    /// `$CLAUDE_PROJECT_DIR`, else the current directory.
    #[pyo3(signature = (name, input, project_dir = None))]
    fn hook<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        input: &[u8],
        project_dir: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyDict>> {
        use cc_search::files::hook;
        let which = hook::Hook::from_name(name).map_err(|e| core_error(py, &e))?;
        let project_dir = non_empty(py, project_dir, "project_dir")?;
        let engine = self.engine(py)?;
        let answer = py.detach(|| hook::run(&engine, which, input, project_dir.as_deref()));
        let out = PyDict::new(py);
        out.set_item("stdout", answer.stdout)?;
        out.set_item("warnings", answer.warnings)?;
        out.set_item("error", answer.error)?;
        match answer.refresh {
            Some(refresh) => {
                let item = PyDict::new(py);
                item.set_item("project_dir", refresh.project_dir.into_os_string())?;
                item.set_item("log", refresh.log.into_os_string())?;
                out.set_item("refresh", item)?;
            }
            None => out.set_item("refresh", py.None())?,
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine(home={:?}{})",
            self.home.to_string_lossy(),
            if self.closed() { ", closed" } else { "" }
        )
    }
}

/// An MCP server over an engine (`cc-search mcp`): JSON-RPC 2.0, one message a line.
///
/// `handle` answers one message; `serve_stdio` runs the whole session on the process's
/// stdin and stdout (file descriptors 0 and 1) without the GIL, flushing every reply,
/// until stdin ends.
#[pyclass(module = "cc_search._native", name = "McpServer", frozen)]
struct McpServer {
    inner: Arc<cc_search::mcp::Server>,
}

#[pymethods]
impl McpServer {
    /// A server whose tools read inside `roots` (the first is the project); `None` or an
    /// empty list: `$CLAUDE_PROJECT_DIR`, else the current directory. The configured
    /// `[index] roots` are added either way. `tools`: selectors (`default`, `all`, a
    /// component, a tool name; `None`: `[mcp] tools`, else `default`); `max_tokens`: an
    /// answer's default budget; `structured`: offer `outputSchema`/`structuredContent`.
    #[new]
    #[pyo3(signature = (engine, roots = None, *, tools = None, max_tokens = None, structured = None))]
    fn new(
        py: Python<'_>,
        engine: &Bound<'_, Engine>,
        roots: Option<Vec<PathBuf>>,
        tools: Option<Vec<String>>,
        max_tokens: Option<usize>,
        structured: Option<bool>,
    ) -> PyResult<Self> {
        let engine = engine.get().engine(py)?;
        let options = cc_search::mcp::ServerOptions {
            roots: roots.unwrap_or_default(),
            tools: tools.unwrap_or_default(),
            max_tokens,
            structured,
        };
        let server = py
            .detach(move || guarded(|| cc_search::mcp::Server::new(engine, options)))
            .map_err(|e| core_error(py, &e))?;
        Ok(McpServer {
            inner: Arc::new(server),
        })
    }

    /// The reply to one message (a line of JSON), or `None` for a notification.
    fn handle(&self, py: Python<'_>, message: &Bound<'_, PyString>) -> PyResult<Option<String>> {
        let message = utf8(py, message, "message")?;
        let server = Arc::clone(&self.inner);
        py.detach(move || guarded(|| Ok(server.handle(&message))))
            .map_err(|e| core_error(py, &e))
    }

    /// Serve on stdin and stdout until stdin ends (or the client closes stdout).
    fn serve_stdio(&self, py: Python<'_>) -> PyResult<()> {
        let server = Arc::clone(&self.inner);
        py.detach(move || {
            guarded(|| {
                let input = std::io::stdin().lock();
                let output = std::io::stdout();
                server.serve(input, output)
            })
        })
        .map_err(|e| core_error(py, &e))
    }

    /// The names of the tools `tools/list` offers, in its order.
    #[getter]
    fn tools(&self) -> Vec<String> {
        self.inner
            .tool_names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    /// The canonical directories the tools may read, the project first.
    #[getter]
    fn roots(&self) -> Vec<PathBuf> {
        self.inner.roots().to_vec()
    }

    /// Warnings from starting the server (a configured root that does not exist).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings().to_vec()
    }
}

/// The version of the cc-search core (`MAJOR.MINOR.PATCH`).
#[pyfunction]
fn version() -> &'static str {
    cc_search::VERSION
}

/// The operation table as JSON: `[{"name", "summary", "request", "response"}]`, the
/// last two JSON Schemas.
#[pyfunction]
fn operations() -> String {
    cc_search::registry::describe().to_string()
}

/// Whether the bytes of a hook's stdin read so far hold one complete JSON object, so
/// reading may stop (`cc_search::files::hook::input_complete`).
#[pyfunction]
fn hook_input_complete(input: &[u8]) -> bool {
    cc_search::files::hook::input_complete(input)
}

/// Operation `op`'s result (its JSON text) as an agent reads it (`cc_search::agent`):
/// short keys, each file once, within `max_tokens` when given. With `view=False` the
/// result keeps its full names and is only cut to `max_tokens`.
#[pyfunction]
#[pyo3(signature = (op, result_json, max_tokens = None, view = true))]
fn agent_answer(
    py: Python<'_>,
    op: &str,
    result_json: &str,
    max_tokens: Option<usize>,
    view: bool,
) -> PyResult<String> {
    let shown = match (view, max_tokens) {
        (false, Some(max_tokens)) => cc_search::agent::within(op, result_json, max_tokens),
        (false, None) => Ok(result_json.to_string()),
        (true, _) => cc_search::agent::answer(op, result_json, max_tokens),
    };
    shown.map_err(|e| core_error(py, &e))
}

/// How an outline names a symbol (`cc_search::agent::outline_parts`), from the symbol's
/// JSON text: its kind and name, or for an `impl` the parts of its signature's head
/// (`impl<S>`, `Clone for Router<S>`).
#[pyfunction]
fn outline_parts(symbol_json: &str) -> PyResult<(String, String)> {
    let symbol: serde_json::Value = serde_json::from_str(symbol_json).map_err(|e| {
        pyo3::exceptions::PyValueError::new_err(format!("not a symbol's JSON: {e}"))
    })?;
    Ok(cc_search::agent::outline_parts(&symbol))
}

/// Every error code an exception's `code` can hold.
#[pyfunction]
fn error_codes() -> Vec<&'static str> {
    cc_search::ERROR_CODES.to_vec()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Engine>()?;
    m.add_class::<McpServer>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    m.add_function(wrap_pyfunction!(hook_input_complete, m)?)?;
    m.add_function(wrap_pyfunction!(agent_answer, m)?)?;
    m.add_function(wrap_pyfunction!(outline_parts, m)?)?;
    m.add("HOOK_INPUT_LIMIT", cc_search::files::hook::MAX_INPUT)?;
    let classes = error_classes(py)?;
    m.add("Error", classes.base.clone_ref(py))?;
    for (code, class) in &classes.by_code {
        m.add(error_class(*code).0, class.clone_ref(py))?;
    }
    m.add("__version__", cc_search::VERSION)?;
    Ok(())
}
