fn main() {
    // cc-search: `warnings(false)`: the upstream C is compiled as published, and as a path
    // dependency its warnings would otherwise be shown on every build.
    cc::Build::new()
        .file("sqlite-vec.c")
        .define("SQLITE_CORE", None)
        .warnings(false)
        .cargo_warnings(false)
        .compile("sqlite_vec0");
}
