//! Index a directory and ask the file picker, from Rust.
//!
//! ```sh
//! cargo run -p cc-search-example -- <project-dir> <query>
//! ```
//!
//! The data root is `$CC_SEARCH_HOME` (else the XDG data directory). Prints the suggested
//! paths, best first, one per line.

use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest};
use cc_search::{Engine, EngineOptions};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [project, query] = args.as_slice() else {
        eprintln!("usage: cc-search-example <project-dir> <query>");
        return std::process::ExitCode::from(2);
    };
    match run(project, query) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error ({}): {e}", e.code());
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(project: &str, query: &str) -> cc_search::Result<()> {
    let engine = Engine::open(EngineOptions::default())?;
    let refreshed = engine.run::<Refresh>(RefreshRequest {
        root: Some(project.into()),
        ..Default::default()
    })?;
    eprintln!("indexed {} files under {}", refreshed.files, refreshed.root);
    let found = engine.run::<Suggest>(SuggestRequest {
        query: query.to_string(),
        project_dir: Some(project.into()),
        limit: None,
        ..Default::default()
    })?;
    for warning in &found.warnings {
        eprintln!("warning: {warning}");
    }
    for path in &found.paths {
        println!("{path}");
    }
    Ok(())
}
