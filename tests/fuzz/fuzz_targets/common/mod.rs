//! A sandbox for the targets that run whole operations: a temporary data root, project,
//! Claude Code directory and home, every variable cc-search reads pointed into it, the
//! current directory the project, and no embedding model (searches run keyword-only,
//! `embed.text` fails at once).
#![allow(dead_code)] // each target uses part of it

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The sandbox's directories.
pub struct Sandbox {
    /// Everything lives under here.
    pub root: PathBuf,
    /// The data root (`CC_SEARCH_HOME`).
    pub home: PathBuf,
    /// The project (`CLAUDE_PROJECT_DIR`, the current directory).
    pub project: PathBuf,
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The sandbox, made on first use (before any engine exists).
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        let root = tempfile::tempdir().expect("temp dir").keep();
        let root = root.canonicalize().unwrap();
        let home = root.join("data");
        let project = root.join("project");
        let claude = root.join("claude");
        write(
            &home.join("config.toml"),
            &format!("[embed]\nmodel_dir = {:?}\n", root.join("no-model").display().to_string()),
        );
        write(&project.join("README.md"), "# Demo\n\nIntro.\n\n## Install\n\nRun `make`.\n\n## Use\n\nCall `parse_query`.\n");
        write(&project.join("docs/guide.md"), "## Guide\n\nRead the button docs.\n");
        write(&project.join("src/main.rs"), "/// Parses a query.\nfn parse_query(q: &str) -> usize { q.len() }\nfn main() { parse_query(\"x\"); }\n");
        write(&project.join("src/components/Button.tsx"), "export function Button() { return null }\n");
        write(&project.join("lib/util.py"), "def get_user_by_id(i):\n    return i\n");
        write(
            &claude.join("projects/-project/0b9c6f0e-1111-4222-8333-944445555666.jsonl"),
            concat!(
                r#"{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/project","timestamp":"2026-01-02T03:04:05Z","message":{"role":"user","content":"how do I parse a query"}}"#,
                "\n",
                r#"{"type":"assistant","uuid":"a1","timestamp":"2026-01-02T03:04:06Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Call parse_query."}]}}"#,
                "\n"
            ),
        );
        let vars: [(&str, PathBuf); 8] = [
            ("CC_SEARCH_HOME", home.clone()),
            ("XDG_DATA_HOME", root.join("xdg-data")),
            ("XDG_CONFIG_HOME", root.join("xdg-config")),
            ("HOME", root.join("user")),
            ("CLAUDE_CONFIG_DIR", claude),
            ("CLAUDE_PROJECT_DIR", project.clone()),
            ("HF_HOME", root.join("hf")),
            ("HF_HUB_CACHE", root.join("hf/hub")),
        ];
        // SAFETY: set once, on the fuzzing thread, before the engine starts any thread.
        unsafe {
            for (name, value) in vars {
                std::env::set_var(name, value);
            }
            for name in ["CC_SEARCH_MODEL_DIR", "CC_SEARCH_PACKAGED_MODEL_DIR", "VIRTUAL_ENV"] {
                std::env::remove_var(name);
            }
        }
        std::fs::create_dir_all(root.join("user")).unwrap();
        std::env::set_current_dir(&project).unwrap();
        Sandbox { root, home, project }
    })
}

/// Whether the JSON `params` name a path outside the sandbox (absolute elsewhere, `~`,
/// or `..`): such calls would walk or index the machine, so the targets skip them.
pub fn leaves_sandbox(params: &str, sandbox: &Sandbox) -> bool {
    fn walk(v: &serde_json::Value, root: &str) -> bool {
        match v {
            serde_json::Value::String(s) => {
                (s.starts_with('/') && !s.starts_with(root))
                    || s.starts_with('~')
                    || s.contains("..")
            }
            serde_json::Value::Array(a) => a.iter().any(|v| walk(v, root)),
            serde_json::Value::Object(o) => o.values().any(|v| walk(v, root)),
            _ => false,
        }
    }
    match serde_json::from_str::<serde_json::Value>(params) {
        Ok(v) => walk(&v, &sandbox.root.display().to_string()),
        // Not JSON: refused before anything runs.
        Err(_) => false,
    }
}
