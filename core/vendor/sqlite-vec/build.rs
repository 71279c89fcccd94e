fn main() {
    // cc emits `rerun-if-env-changed` lines, after which cargo no longer rebuilds on a
    // changed file unless told which: the C sources are.
    for file in ["sqlite-vec.c", "sqlite-vec.h", "sqlite3ext.h", "sqlite3.h"] {
        println!("cargo:rerun-if-changed={file}");
    }
    // cc-search: `warnings(false)`: the upstream C is compiled as published, and as a path
    // dependency its warnings would otherwise be shown on every build.
    cc::Build::new()
        .file("sqlite-vec.c")
        .define("SQLITE_CORE", None)
        .warnings(false)
        .cargo_warnings(false)
        .compile("sqlite_vec0");
}
