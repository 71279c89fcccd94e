//! Stopping a call through the C ABI: tests/c/cancel_test.c compiled by gcc against the
//! shared library, calling `cc_search_cancel` from a SIGINT handler and from a second
//! thread while `cc_search_call_with_progress` embeds real docs with the real model.

use std::process::Command;

use crate::common;
use crate::core_common;
use common::{gcc, libraries, workspace};

fn docs(project: &std::path::Path) {
    for f in 0..8 {
        let sections: String = (0..40)
            .map(|s| {
                format!(
                    "## Topic {f}-{s}\n\nHow part {s} of guide {f} sets up widget {}.\n\n",
                    f * 100 + s
                )
            })
            .collect();
        let file = project.join(format!("docs/g{f}.md"));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, format!("# Guide {f}\n\n{sections}")).unwrap();
    }
}

#[test]
fn cancel_from_a_signal_handler_and_from_another_thread() {
    let Some(model) = core_common::model_dir() else {
        return;
    };
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("cancel_test");
    gcc(
        &exe,
        &workspace().join("tests/c/cancel_test.c"),
        &lib_dir,
        false,
    );
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        format!("[embed]\nmodel_dir = {:?}\n", model.display().to_string()),
    )
    .unwrap();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    docs(a.path());
    docs(b.path());
    let output = Command::new(&exe)
        .arg(home.path())
        .arg(a.path())
        .arg(b.path())
        .env("LD_LIBRARY_PATH", &lib_dir)
        .output()
        .expect("run cancel_test");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "cancel_test failed:\n{stderr}");
    assert!(stdout.starts_with("ok 22 checks"), "{stdout}");
    assert!(!home.path().join("docs.lock").exists(), "released");
}
