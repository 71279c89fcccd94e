//! code.* through the C ABI: tests/c/code_test.c compiled by gcc against the shared
//! library and run on a small repository this test writes.

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{gcc, libraries, workspace};

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

#[test]
fn code_index_search_and_detail_through_cc_search_call() {
    let lib_dir = libraries();
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("code_test");
    gcc(
        &exe,
        &workspace().join("tests/c/code_test.c"),
        &lib_dir,
        false,
    );
    let home = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    write(
        repo.path(),
        "src/service.ts",
        "import { helper } from './helpers';\n\n/** Loads users. */\nexport class UserService {\n  /** Get one user by id. */\n  getUserById(id: number): User {\n    return helper(id);\n  }\n}\n",
    );
    write(
        repo.path(),
        "src/helpers.ts",
        "/** Helps. */\nexport function helper(id: number): User {\n  return { id };\n}\n",
    );
    write(
        repo.path(),
        "src/pets.ts",
        "export class Cat { speak() {} }\nexport class Dog { speak() {} }\nexport function talk(pet) { pet.speak(); }\n",
    );
    let repo_path = std::fs::canonicalize(repo.path()).unwrap();
    let output = Command::new(&exe)
        .arg(home.path())
        .arg(&repo_path)
        .env("LD_LIBRARY_PATH", &lib_dir)
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .expect("run code_test");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "code_test failed:\n{stderr}");
    assert!(stdout.starts_with("ok 36 checks"), "{stdout}");
    // The index is one database under the data root's code/.
    let dbs: Vec<_> = std::fs::read_dir(home.path().join("code"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "db"))
        .collect();
    assert_eq!(dbs.len(), 1, "{dbs:?}");
}
