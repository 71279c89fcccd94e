//! How Rust links: a path (`crate::a::b::f`, `super::x`, `other_crate::T`, a `use`d
//! name followed by more) names modules, then an item, then its members — never a
//! value; a module is a file of its crate (`a/b.rs`, `a/b/mod.rs`), a crate is found by
//! its package's `Cargo.toml`; `pub use` passes names on; a macro (`name!`) is one of
//! the same crate.

use std::collections::HashMap;

use crate::code::SymbolKind;
use crate::code::extract::type_name;
use crate::code::lang::linking::split_top_level;
use crate::code::lang::{Family, LanguageLinker, Modules, Reach, dir_of, join};

/// Rust's rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(Crates::default())
    }

    fn directory_files(&self) -> &'static [&'static str] {
        &["mod"]
    }

    fn imports_pass_on(&self) -> bool {
        true
    }

    fn static_paths(&self) -> bool {
        true
    }

    fn gives(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Option<String> {
        if !matches!(kind?, SymbolKind::Fn | SymbolKind::Method) {
            return None;
        }
        // The last arrow after a parenthesis: a parameter's `impl Fn(u8) -> u32` is
        // before it.
        let (_, returns) = signature?.rsplit_once(") -> ")?;
        let returns = returns.split(" where ").next()?;
        returned_type(returns)
    }

    fn glob_is_local(&self, module: &str) -> bool {
        // `use super::*` is nearly always a test module's, inside the file: the file
        // itself, seen before any glob.
        module == "super"
    }
}

/// The type a function's return type gives a value of, as a qualifier: `Foo` of `Foo`,
/// `&mut Foo`, `Self`, and of what a `?` or a smart pointer reaches through
/// (`Result<Foo, E>`, `Option<Foo>`, `Box<Foo>`, `Arc<Foo>`, `Rc<Foo>`).
fn returned_type(text: &str) -> Option<String> {
    let mut t = text.trim();
    loop {
        let t0 = t.trim_start_matches(['&', ' ']);
        let t0 = t0.strip_prefix("mut ").unwrap_or(t0);
        let outer = t0.split('<').next()?.rsplit("::").next()?.trim();
        match outer {
            "Result" | "Option" | "Box" | "Arc" | "Rc" if t0.ends_with('>') => {
                let inner = &t0[t0.find('<')? + 1..t0.len() - 1];
                // The first argument.
                t = split_top_level(inner).next()?;
            }
            _ => return type_name(t0).filter(|t| !t.is_empty()),
        }
    }
}

/// A Rust crate of the repository: the directory its module paths start from, its root
/// file.
#[derive(Debug, Clone)]
struct Crate {
    /// The directory of the root file (`core/src`).
    dir: String,
    /// The root file (`core/src/lib.rs`).
    root: String,
}

/// Rust's module resolution: the crates of the repository, found on first use.
#[derive(Default)]
struct Crates {
    /// The crate of each file asked about.
    crate_of: HashMap<i64, Option<Crate>>,
    /// Per directory: the package there (its `Cargo.toml`'s crate name), if any.
    packages: HashMap<String, Option<String>>,
    /// Crates by name (`-` as `_`), found on first use.
    crates: Option<HashMap<String, Crate>>,
}

/// How deep a path is followed through `use` bindings.
const MAX_DEPTH: usize = 4;

impl Modules for Crates {
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        let segments: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
        Ok(self
            .rust_module(reach, file, &segments, 0)?
            .and_then(|(files, rest)| rest.is_empty().then_some(files))
            .unwrap_or_default())
    }

    fn walk(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        segments: &[&str],
    ) -> rusqlite::Result<Option<(Vec<i64>, Vec<String>)>> {
        self.rust_module(reach, file, segments, 0)
    }

    /// The directory of the crate `file` is in. Any file's, not only a Rust file's: a
    /// package's directories hold other languages too.
    fn unit(&mut self, reach: &mut dyn Reach, file: i64) -> rusqlite::Result<Option<String>> {
        Ok(self.crate_of(reach, file)?.map(|c| c.dir))
    }
}

impl Crates {
    /// The crate name of the package whose `Cargo.toml` is in `dir`, if there is one.
    fn package_at(&mut self, reach: &mut dyn Reach, dir: &str) -> Option<String> {
        if let Some(found) = self.packages.get(dir) {
            return found.clone();
        }
        let manifest = reach.root().join(dir).join("Cargo.toml");
        let name = std::fs::read_to_string(manifest)
            .ok()
            .map(|text| crate_name(&text).unwrap_or_default());
        self.packages.insert(dir.to_string(), name.clone());
        name
    }

    /// The crate `file` belongs to (found once per file).
    fn crate_of(&mut self, reach: &mut dyn Reach, file: i64) -> rusqlite::Result<Option<Crate>> {
        if let Some(found) = self.crate_of.get(&file) {
            return Ok(found.clone());
        }
        let found = self.find_crate_of(reach, file)?;
        self.crate_of.insert(file, found.clone());
        Ok(found)
    }

    fn find_crate_of(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
    ) -> rusqlite::Result<Option<Crate>> {
        let rel = reach.rel(file)?;
        let mut dir = dir_of(&rel).to_string();
        loop {
            if self.package_at(reach, &dir).is_some() {
                break;
            }
            if dir.is_empty() {
                return crate_without_package(reach, &rel);
            }
            dir = dir_of(&dir).to_string();
        }
        let under = rel
            .strip_prefix(&dir)
            .map(|r| r.trim_start_matches('/'))
            .unwrap_or(&rel);
        let target_dir = under.split('/').next().unwrap_or("");
        let src = join(&dir, "src");
        match target_dir {
            "src" if !under.starts_with("src/bin/") => {
                for f in ["lib.rs", "main.rs"] {
                    let root = join(&src, f);
                    if reach.id_of(&root)?.is_some() {
                        return Ok(Some(Crate { dir: src, root }));
                    }
                }
                Ok(None)
            }
            // `tests/x.rs`, `src/bin/x.rs`, `examples/x/main.rs`: each its own crate.
            _ => {
                let base = if under.starts_with("src/bin/") {
                    join(&dir, "src/bin")
                } else {
                    join(&dir, target_dir)
                };
                let Some(inner) = rel.strip_prefix(&base) else {
                    return Ok(None);
                };
                let root = match inner.trim_start_matches('/').split_once('/') {
                    Some((sub, _)) => join(&join(&base, sub), "main.rs"),
                    None => rel.clone(),
                };
                Ok(Some(Crate {
                    dir: dir_of(&root).to_string(),
                    root,
                }))
            }
        }
    }

    /// The crates of the repository by name, from the packages above its Rust files.
    fn crate_named(
        &mut self,
        reach: &mut dyn Reach,
        family: Family,
        name: &str,
    ) -> rusqlite::Result<Option<Crate>> {
        if self.crates.is_none() {
            let mut out = HashMap::new();
            for dir in package_dirs(reach.paths_of(family)?) {
                if let Some(name) = self.package_at(reach, &dir).filter(|n| !n.is_empty()) {
                    let src = join(&dir, "src");
                    let root = join(&src, "lib.rs");
                    if reach.id_of(&root)?.is_some() {
                        out.insert(name, Crate { dir: src, root });
                    }
                }
            }
            self.crates = Some(out);
        }
        Ok(self.crates.as_ref().and_then(|c| c.get(name)).cloned())
    }

    /// Follow a Rust path from `file` through modules: the files of the last module it
    /// reaches and the segments left (an item, then its members). `None` when the path
    /// does not start in the repository (another crate, the standard library).
    fn rust_module(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        segments: &[&str],
        depth: usize,
    ) -> rusqlite::Result<Option<(Vec<i64>, Vec<String>)>> {
        let Some(krate) = self.crate_of(reach, file)? else {
            return Ok(None);
        };
        let Some(first) = segments.first().copied() else {
            return Ok(None);
        };
        let rel = reach.rel(file)?;
        let here = module_of(&krate, &rel);
        let (krate, mut path, mut rest): (Crate, Vec<String>, &[&str]) = match first {
            "crate" => (krate, Vec::new(), &segments[1..]),
            "self" => (krate, here, &segments[1..]),
            "super" => {
                let mut path = here;
                let mut rest = segments;
                while rest.first() == Some(&"super") {
                    path.pop();
                    rest = &rest[1..];
                }
                (krate, path, rest)
            }
            _ => {
                let bindings = reach.bindings_of(file)?;
                if let Some(b) = bindings.iter().find(|b| b.local == first)
                    && depth < MAX_DEPTH
                {
                    // `use a::b;` then `b::f`: the path through the binding.
                    let mut full: Vec<&str> =
                        b.module.split("::").filter(|s| !s.is_empty()).collect();
                    if let Some(name) = b.name.as_deref() {
                        full.push(name);
                    }
                    full.extend_from_slice(&segments[1..]);
                    return self.rust_module(reach, file, &full, depth + 1);
                }
                let mut child = here.clone();
                child.push(first.to_string());
                if module_file(reach, &krate, &child)?.is_some() {
                    (krate, child, &segments[1..])
                } else if matches!(first, "std" | "core" | "alloc" | "proc_macro" | "test") {
                    // The standard library: no need to read every manifest to know.
                    return Ok(None);
                } else {
                    let family = reach.family(file)?;
                    match self.crate_named(reach, family, first)? {
                        Some(other) => (other, Vec::new(), &segments[1..]),
                        None => return Ok(None),
                    }
                }
            }
        };
        while let Some(next) = rest.first() {
            let mut child = path.clone();
            child.push(next.to_string());
            if module_file(reach, &krate, &child)?.is_none() {
                break;
            }
            path = child;
            rest = &rest[1..];
        }
        let files: Vec<i64> = module_file(reach, &krate, &path)?.into_iter().collect();
        Ok(Some((files, rest.iter().map(|s| s.to_string()).collect())))
    }
}

/// A crate for a file with no `Cargo.toml` above it: the nearest `lib.rs` or `main.rs`
/// up its directories.
fn crate_without_package(reach: &mut dyn Reach, rel: &str) -> rusqlite::Result<Option<Crate>> {
    let mut dir = dir_of(rel);
    loop {
        for f in ["lib.rs", "main.rs"] {
            let root = join(dir, f);
            if reach.id_of(&root)?.is_some() {
                return Ok(Some(Crate {
                    dir: dir.to_string(),
                    root,
                }));
            }
        }
        if dir.is_empty() {
            return Ok(None);
        }
        dir = dir_of(dir);
    }
}

/// The module path of `rel` in its crate (`code/db` for `core/src/code/db.rs`).
fn module_of(krate: &Crate, rel: &str) -> Vec<String> {
    if rel == krate.root {
        return Vec::new();
    }
    let inner = rel
        .strip_prefix(&krate.dir)
        .map(|r| r.trim_start_matches('/'))
        .unwrap_or(rel);
    let inner = inner.strip_suffix(".rs").unwrap_or(inner);
    let inner = inner.strip_suffix("/mod").unwrap_or(inner);
    inner
        .split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// The file of module `path` of `krate`, if it is a file of the index.
fn module_file(
    reach: &mut dyn Reach,
    krate: &Crate,
    path: &[String],
) -> rusqlite::Result<Option<i64>> {
    if path.is_empty() {
        return reach.id_of(&krate.root);
    }
    let base = join(&krate.dir, &path.join("/"));
    for p in [format!("{base}.rs"), format!("{base}/mod.rs")] {
        if let Some(id) = reach.id_of(&p)? {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// The directories packages may be in (above a `src/`) of the Rust files at `paths`,
/// sorted.
fn package_dirs(paths: Vec<String>) -> Vec<String> {
    let mut dirs: Vec<String> = paths
        .iter()
        .filter_map(|rel| package_dir(rel).map(String::from))
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The directory a package of `rel` may be in: what is above its first `src/`.
fn package_dir(rel: &str) -> Option<&str> {
    rel.find("/src/")
        .map(|i| &rel[..i])
        .or_else(|| rel.starts_with("src/").then_some(""))
}

/// The crate name a `Cargo.toml` gives (`[lib] name`, else `[package] name`), with `-`
/// as `_`; `None` for a manifest without a package (a workspace root).
fn crate_name(manifest: &str) -> Option<String> {
    let mut section = "";
    let (mut package, mut lib) = (None, None);
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let Some(value) = line
            .strip_prefix("name")
            .map(str::trim_start)
            .and_then(|v| v.strip_prefix('='))
        else {
            continue;
        };
        let value = value.trim().trim_matches('"').replace('-', "_");
        match section {
            "[package]" => package = Some(value),
            "[lib]" => lib = Some(value),
            _ => {}
        }
    }
    lib.or(package)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_return_type_gives_the_type_reached_through_results_and_pointers() {
        let gives = |sig| Linking.gives(Some(SymbolKind::Fn), Some(sig));
        assert_eq!(gives("pub fn open() -> Store").as_deref(), Some("Store"));
        assert_eq!(gives("fn f(&self) -> &mut Store").as_deref(), Some("Store"));
        assert_eq!(
            gives("fn f() -> io::Result<Box<Store>>").as_deref(),
            Some("Store")
        );
        assert_eq!(
            gives("fn f() -> Result<Option<Store>, Error<X, Y>>").as_deref(),
            Some("Store")
        );
        assert_eq!(gives("fn new() -> Self").as_deref(), Some("Self"));
        assert_eq!(
            gives("fn f<T>(x: T) -> T where T: Clone").as_deref(),
            Some("T")
        );
        assert_eq!(gives("fn f()"), None);
        // The first argument ends at its own top-level comma.
        assert_eq!(
            gives("fn f() -> Option<HashMap<K, V>>").as_deref(),
            Some("HashMap")
        );
        assert_eq!(
            gives("fn f() -> Result<(Store, u8), E>").as_deref(),
            None,
            "a tuple is no type of the project's"
        );
    }

    #[test]
    fn crate_names_come_from_the_lib_or_the_package() {
        assert_eq!(
            crate_name("[package]\nname = \"cc-search\"\n[lib]\ncrate-type = []\n"),
            Some("cc_search".into())
        );
        assert_eq!(
            crate_name("[package]\nname = \"a\"\n[lib]\nname = \"b_lib\"\n"),
            Some("b_lib".into())
        );
        assert_eq!(crate_name("[workspace]\nmembers = []\n"), None);
    }

    /// Packages are looked for above a `src/` (the root's own included), not in a
    /// directory merely starting with `src`.
    #[test]
    fn packages_are_above_a_src_directory() {
        let paths = [
            "a.rs",
            "mod.rs",
            "src/lib.rs",
            "src/mod.rs",
            "srcx/a.rs",
            "crates/foo/src/lib.rs",
            "crates/foo/src/a/src/b.rs",
        ];
        assert_eq!(
            package_dirs(paths.map(String::from).to_vec()),
            ["", "crates/foo"].map(String::from).to_vec()
        );
    }
}
