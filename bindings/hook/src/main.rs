//! `cc-search-hook`: cc-search's Claude Code hooks as a native program, the fastest way to
//! run them (no interpreter to start).
//!
//! ```text
//! cc-search-hook [--home DIR] [--config FILE] file-suggestion [-C DIR]
//! cc-search-hook [--home DIR] [--config FILE] session-start [-C DIR]
//! cc-search-hook [--home DIR] [--config FILE] refresh [-C DIR]
//! ```
//!
//! What a hook's input means, how much of it is read, what is printed, the session-start
//! log and whether a refresh is due are the core's (`cc_search::files::hook`), shared with
//! the Python CLI's `cc-search hook` commands and the npm package's Bun hooks. This program
//! reads stdin, makes one call, writes the answer, reports on stderr (`cc-search: …`, one
//! line each) and starts the refresh the answer asks for: itself, as `refresh`, in a
//! detached process of its own session whose output is appended to the log. A hook never
//! fails Claude Code: its exit status is 0 whatever happens.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use cc_search::files::hook::{self, Answer, Hook, Refresh};
use cc_search::{Engine, EngineOptions};

/// Longest wait for a hook's input to end.
const INPUT_TIMEOUT: Duration = Duration::from_secs(2);

const USAGE: &str = "\
Usage: cc-search-hook [--home DIR] [--config FILE] COMMAND

Claude Code's hooks, answered natively by cc-search.

Commands:
  file-suggestion   The fileSuggestion command (the @ picker): reads {\"query\": \"...\"}
                    on stdin, prints up to 15 paths of the project ($CLAUDE_PROJECT_DIR,
                    else the current directory), one a line.
  session-start     The SessionStart hook: starts `refresh` for the project in the
                    background, logging to <data root>/logs/session-start.log.
  refresh           Refresh the index of a session's roots (the project, the configured
                    [index] roots, the project's additional directories), one log line
                    per step on stdout.

The hooks never fail: the exit status is 0, a problem is one line on stderr.

Options:
  -C, --project-dir DIR
                   The project; defaults to $CLAUDE_PROJECT_DIR, else the current
                   directory.
  --home DIR       Data root; defaults to $CC_SEARCH_HOME, else $XDG_DATA_HOME/cc-search.
  --config FILE    Configuration file; defaults to config.toml in the data root.
  --timings        After a hook's answer, one line on stderr with the time of each step.
  -h, --help       Show this message and exit.
  -V, --version    Print the version and exit.
";

/// What the command line asks for.
#[derive(Debug)]
enum Task {
    /// A hook, for the project given (else the default one).
    Hook(Hook, Option<PathBuf>),
    Refresh(Option<PathBuf>),
    Help,
    Version,
}

#[derive(Debug)]
struct Args {
    task: Task,
    options: EngineOptions,
    timings: bool,
}

fn main() -> ExitCode {
    // Panics are reported as one line by whoever catches them, never as a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let args = match parse(std::env::args_os().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            let _ = writeln!(
                io::stderr(),
                "cc-search-hook: usage error: {message}\nTry 'cc-search-hook --help' for help."
            );
            return ExitCode::from(2);
        }
    };
    match args.task {
        Task::Help => print(USAGE),
        Task::Version => print(&format!("cc-search-hook {}\n", env!("CARGO_PKG_VERSION"))),
        Task::Hook(which, project_dir) => {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                answer(which, args.options, args.timings, project_dir.as_deref());
            }));
            if let Err(payload) = outcome {
                let detail = cc_search::error::panic_message(payload.as_ref());
                failed(which, &format!("internal error: {detail}"));
            }
            ExitCode::SUCCESS
        }
        Task::Refresh(project_dir) => {
            match catch_unwind(AssertUnwindSafe(|| refresh(args.options, project_dir))) {
                Ok(code) => code,
                Err(payload) => {
                    let detail = cc_search::error::panic_message(payload.as_ref());
                    log(&format!("refresh failed: internal error: {detail}"));
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn print(text: &str) -> ExitCode {
    let _ = io::stdout().write_all(text.as_bytes());
    ExitCode::SUCCESS
}

/// The command line: options before or after the command, `--name value` or
/// `--name=value`.
fn parse(mut args: impl Iterator<Item = OsString>) -> Result<Args, String> {
    let mut command: Option<String> = None;
    let mut options = EngineOptions::default();
    let mut project_dir = None;
    let mut timings = false;
    let mut help = false;
    let mut version = false;
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name.to_string(), Some(value)),
            _ => (text.clone(), None),
        };
        let mut value = |what: &str| -> Result<PathBuf, String> {
            let value = match inline {
                Some(value) => OsString::from(value),
                None => args
                    .next()
                    .ok_or_else(|| format!("option {what} requires a value"))?,
            };
            if value.is_empty() {
                return Err(format!("option {what} requires a value"));
            }
            Ok(PathBuf::from(value))
        };
        match name.as_str() {
            "-h" | "--help" => help = true,
            "-V" | "--version" => version = true,
            "--timings" => timings = true,
            "--home" => options.home = Some(value("--home")?),
            "--config" => options.config_path = Some(value("--config")?),
            "-C" | "--project-dir" => project_dir = Some(value("--project-dir")?),
            _ if name.starts_with('-') && name != "-" => {
                return Err(format!("no such option: {name}"));
            }
            _ if command.is_none() => command = Some(text),
            _ => return Err(format!("unexpected argument: {text}")),
        }
    }
    let task = if help {
        Task::Help
    } else if version {
        Task::Version
    } else {
        match command.as_deref() {
            None => {
                return Err(
                    "a command is required: file-suggestion, session-start or refresh".into(),
                );
            }
            Some("refresh") => Task::Refresh(project_dir),
            Some(name) => Task::Hook(
                Hook::from_name(name).map_err(|e| e.to_string())?,
                project_dir,
            ),
        }
    };
    Ok(Args {
        task,
        options,
        timings,
    })
}

/// Answer hook `which` for this process's stdin: everything a hook run does.
fn answer(which: Hook, options: EngineOptions, timings: bool, project_dir: Option<&Path>) {
    let started = Instant::now();
    let input = read_input();
    let read = started.elapsed();
    let engine = match Engine::open(options) {
        Ok(engine) => engine,
        Err(e) => return failed(which, &e.to_string()),
    };
    let opened = started.elapsed();
    // With --timings the index is opened on its own first, so that its cost shows apart
    // from the query's (the query then reuses the connection).
    if timings && which == Hook::FileSuggestion {
        let mut ignored = Vec::new();
        if let Ok(db) = engine.database(&cc_search::files::FILES_DB) {
            drop(db.read(&mut ignored));
        }
    }
    let database = started.elapsed();
    let answer = hook::run(&engine, which, &input, project_dir);
    let queried = started.elapsed();
    deliver(which, &answer);
    if let Some(refresh) = &answer.refresh {
        start_refresh(which, refresh, &engine);
    }
    if timings {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        note(&format!(
            "timings: read input {:.3} ms, open engine {:.3} ms, open index {:.3} ms, \
             query {:.3} ms, write {:.3} ms",
            ms(read),
            ms(opened - read),
            ms(database - opened),
            ms(queried - database),
            ms(started.elapsed() - queried),
        ));
    }
}

/// Write the answer: stdout, then its error or warnings on stderr.
fn deliver(which: Hook, answer: &Answer) {
    if let Some(error) = &answer.error {
        return failed(which, error);
    }
    if !answer.stdout.is_empty() {
        let mut stdout = io::stdout().lock();
        let written = stdout
            .write_all(answer.stdout.as_bytes())
            .and_then(|()| stdout.flush());
        match written {
            // The picker stopped listening: nothing to tell it.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            Err(e) => failed(which, &format!("cannot write the answer: {e}")),
            Ok(()) => {}
        }
    }
    for warning in &answer.warnings {
        note(&format!("warning: {warning}"));
    }
}

/// Start `refresh` for the project, detached: a session of its own (it outlives the
/// hook and Claude Code's process group), stdin closed, stdout and stderr appended to
/// the log. The hook itself never writes to the log: it must not wait on it.
fn start_refresh(which: Hook, refresh: &Refresh, engine: &Engine) {
    let started = (|| -> io::Result<()> {
        let exe = std::env::current_exe()?;
        let log = File::options()
            .append(true)
            .create(true)
            .open(&refresh.log)?;
        let mut command = Command::new(&exe);
        command
            .arg("--home")
            .arg(engine.home())
            .arg("--config")
            .arg(engine.config_path())
            .arg("refresh")
            .arg("--project-dir")
            .arg(&refresh.project_dir);
        command
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        detach(&mut command);
        command.spawn()?;
        Ok(())
    })();
    if let Err(e) = started {
        failed(which, &format!("cannot start the index refresh: {e}"));
    }
}

#[cfg(unix)]
fn detach(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid is async-signal-safe and touches no memory of this process.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn detach(_command: &mut Command) {}

/// `refresh`: what a session start refreshes for the project, one log line per step on
/// stdout; status 1 when it failed.
fn refresh(options: EngineOptions, project_dir: Option<PathBuf>) -> ExitCode {
    let started = Instant::now();
    let project = match cc_search::env::project_dir_as_named(project_dir) {
        Ok(project) => project,
        Err(e) => {
            log(&format!("refresh: failed: {e}"));
            return ExitCode::FAILURE;
        }
    };
    log(&format!("refresh {}: started", project.display()));
    let result = Engine::open(options).and_then(|engine| {
        for warning in engine.warnings() {
            log(&format!("warning: {warning}"));
        }
        engine.run::<cc_search::files::Refresh>(cc_search::files::RefreshRequest {
            project_dir: Some(project.clone()),
            ..Default::default()
        })
    });
    match result {
        Ok(r) => {
            for root in &r.roots {
                let truncated = if root.truncated {
                    ", truncated by the file limit"
                } else {
                    ""
                };
                log(&format!(
                    "indexed {}: {} ({} added, {} updated, {} removed){truncated}",
                    root.root,
                    count(root.files, "file"),
                    root.added,
                    root.updated,
                    root.removed
                ));
            }
            for warning in &r.warnings {
                log(&format!("warning: {warning}"));
            }
            log(&format!(
                "refresh {}: done, {} in {} in {} ms",
                r.root,
                count(r.files, "file"),
                count(r.roots.len(), "root"),
                started.elapsed().as_millis()
            ));
            ExitCode::SUCCESS
        }
        Err(e) => {
            log(&format!("refresh {}: failed: {e}", project.display()));
            ExitCode::FAILURE
        }
    }
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The time now as the log writes it (UTC, to the millisecond).
fn now() -> String {
    cc_search::time::format_rfc3339_millis(cc_search::time::unix_now_ns().div_euclid(1_000_000))
}

/// One line of the refresh's log on stdout: the time, the process, `message`.
fn log(message: &str) {
    let line = format!(
        "{} [{}] {}\n",
        now(),
        std::process::id(),
        hook::one_line(message)
    );
    let _ = io::stdout().lock().write_all(line.as_bytes());
}

/// A hook's failure: one line on stderr; stdout stays as it is.
fn failed(which: Hook, message: &str) {
    note(&format!("error: hook {}: {message}", which.name()));
}

/// One line on stderr, prefixed `cc-search: `; a closed stderr is ignored.
fn note(message: &str) {
    let _ = io::stderr()
        .lock()
        .write_all(format!("cc-search: {}\n", hook::one_line(message)).as_bytes());
}

/// The hook's stdin: nothing from a terminal; else at most [`hook::MAX_INPUT`] bytes, up
/// to the first complete JSON object, and no longer than [`INPUT_TIMEOUT`] when the writer
/// keeps the pipe open. (A closed descriptor 0 reads as empty: Rust's runtime opens
/// /dev/null in its place.)
fn read_input() -> Vec<u8> {
    use std::io::{IsTerminal, Read};
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return Vec::new();
    }
    let deadline = Instant::now() + INPUT_TIMEOUT;
    let mut input = Vec::new();
    let mut buf = [0u8; 65536];
    let mut stdin = stdin.lock();
    while input.len() < hook::MAX_INPUT {
        if !readable_before(deadline) {
            break;
        }
        match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => input.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        if hook::input_complete(&input) {
            break;
        }
    }
    input.truncate(hook::MAX_INPUT);
    input
}

/// Whether stdin has something to read (data, the end, an error) before `deadline`.
#[cfg(unix)]
fn readable_before(deadline: Instant) -> bool {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        let mut fd = libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = libc::c_int::try_from(left.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: one valid pollfd, for the duration of the call.
        let ready = unsafe { libc::poll(&mut fd, 1, ms) };
        match ready {
            -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => continue,
            // An error or an invalid descriptor: let read() say what it is.
            -1 => return true,
            0 => return false,
            _ => return true,
        }
    }
}

#[cfg(not(unix))]
fn readable_before(_deadline: Instant) -> bool {
    true
}
