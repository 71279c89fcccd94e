//! Where a picker query looks: the project, its additional directories, or what a prefix
//! selects (spec "Query Scoping", "Prefix Syntax").

use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};

use super::query::Prefix;
use crate::config::{Config, Namespace};
use crate::engine::Within;

/// What a query may return.
#[derive(Debug)]
pub(crate) struct Scope {
    /// The project directory (canonical): results inside it are shown relative to it.
    pub project: PathBuf,
    /// Canonical directories searched.
    pub dirs: Vec<PathBuf>,
    /// A further condition on each path.
    pub filter: Filter,
    /// The directories every result must lie in (the request's `within`; empty: no
    /// limit beyond `dirs`).
    pub within: Within,
}

/// The condition a prefix puts on paths.
#[derive(Debug)]
pub(crate) enum Filter {
    /// Everything in the directories.
    All,
    /// Globs of a namespace: relative ones match the path below its scope directory,
    /// absolute ones (`/…`, `~/…`) the absolute path.
    Globs {
        relative: GlobSet,
        absolute: GlobSet,
    },
    /// `@/folder:` — a directory component equal to `folder` or `.folder`.
    Folder(String),
    /// `@*.ext` — the file name matches the glob (case-insensitively).
    Name(GlobMatcher),
}

impl Scope {
    /// Resolve `prefix` for `project` (canonical). `extra` are the project's additional
    /// directories (canonical).
    pub fn resolve(
        prefix: Option<&Prefix>,
        project: &Path,
        config: &Config,
        extra: Vec<PathBuf>,
        warnings: &mut Vec<String>,
    ) -> Scope {
        let mut dirs = vec![project.to_path_buf()];
        dirs.extend(extra.into_iter().filter(|d| !d.starts_with(project)));
        let filter = match prefix {
            None => Filter::All,
            Some(Prefix::Folder(name)) => Filter::Folder(name.clone()),
            Some(Prefix::Glob(glob)) => match GlobBuilder::new(glob)
                .case_insensitive(true)
                .literal_separator(false)
                .build()
            {
                Ok(g) => Filter::Name(g.compile_matcher()),
                Err(e) => {
                    warnings.push(format!("glob `{glob}`: {e}"));
                    Filter::Globs {
                        relative: GlobSet::empty(),
                        absolute: GlobSet::empty(),
                    }
                }
            },
            Some(Prefix::Namespace(name)) => match config.namespaces.get(name) {
                Some(Namespace::Root(root)) => {
                    let root = expand_home(root);
                    match std::fs::canonicalize(&root) {
                        Ok(root) => dirs = vec![root],
                        Err(e) => {
                            warnings.push(format!("namespace `{name}`: {} ({e})", root.display()));
                            dirs.clear();
                        }
                    }
                    Filter::All
                }
                Some(Namespace::Globs(globs)) => namespace_globs(name, globs, warnings),
                None => Filter::All,
            },
        };
        Scope {
            project: project.to_path_buf(),
            dirs,
            filter,
            within: Within::default(),
        }
    }

    /// Limit the scope to `within`: directories with nothing under it are dropped, and
    /// every path must lie under it ([`Scope::dir_of`]). The directories keep their
    /// meaning for the filter and for display; [`Scope::search_dirs`] is where to look.
    pub fn confine(&mut self, within: Within) {
        if !within.is_all() {
            self.dirs
                .retain(|d| within.contains(d) || within.usable_dirs().any(|w| w.starts_with(d)));
        }
        self.within = within;
    }

    /// The directories to read: each scope directory under `within` whole, else the
    /// `within` directories below it that exist.
    pub fn search_dirs(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for dir in &self.dirs {
            if self.within.contains(dir) {
                if !out.contains(dir) {
                    out.push(dir.clone());
                }
                continue;
            }
            for w in self.within.usable_dirs() {
                if w.starts_with(dir) && w.is_dir() && !out.iter().any(|o| o == w) {
                    out.push(w.to_path_buf());
                }
            }
        }
        out
    }

    /// For paths below `base`: `None` when all of `base` is under `within`, else the
    /// relative prefixes one of which a path below `base` must start with (empty:
    /// nothing below `base` is).
    pub fn within_below(&self, base: &Path) -> Option<Vec<PathBuf>> {
        if self.within.contains(base) {
            return None;
        }
        Some(
            self.within
                .usable_dirs()
                .filter_map(|w| w.strip_prefix(base).ok())
                .filter(|rel| !rel.as_os_str().is_empty())
                .map(Path::to_path_buf)
                .collect(),
        )
    }

    /// The scope directory containing `path` (absolute), if any and if `path` lies under
    /// `within`.
    pub fn dir_of<'a>(&'a self, path: &Path) -> Option<&'a Path> {
        if !self.within.contains(path) {
            return None;
        }
        self.dirs
            .iter()
            .find(|d| path.starts_with(d) && path != d.as_path())
            .map(PathBuf::as_path)
    }

    /// Whether `path` (absolute, inside `dir`) passes the prefix's filter.
    pub fn accepts(&self, path: &Path, dir: &Path) -> bool {
        match &self.filter {
            Filter::All => true,
            Filter::Globs { relative, absolute } => {
                let rel = path.strip_prefix(dir).unwrap_or(path);
                relative.is_match(rel) || absolute.is_match(path)
            }
            Filter::Folder(name) => {
                let rel = path.strip_prefix(dir).unwrap_or(path);
                let mut components = rel.components().peekable();
                let mut found = false;
                while let Some(c) = components.next() {
                    // Directory components only: the file name is the last one.
                    if components.peek().is_none() {
                        break;
                    }
                    let c = c.as_os_str().to_string_lossy();
                    if c == name.as_str() || c.strip_prefix('.') == Some(name.as_str()) {
                        found = true;
                        break;
                    }
                }
                found
            }
            Filter::Name(glob) => path.file_name().is_some_and(|n| glob.is_match(n)),
        }
    }

    /// Whether the filter is anything but "everything".
    pub fn is_filtered(&self) -> bool {
        !matches!(self.filter, Filter::All)
    }
}

fn namespace_globs(name: &str, globs: &[String], warnings: &mut Vec<String>) -> Filter {
    let mut relative = GlobSetBuilder::new();
    let mut absolute = GlobSetBuilder::new();
    for glob in globs {
        let (builder, pattern) = if glob.starts_with('/') || glob == "~" || glob.starts_with("~/") {
            (
                &mut absolute,
                expand_home(glob).to_string_lossy().into_owned(),
            )
        } else {
            (&mut relative, glob.clone())
        };
        match Glob::new(&pattern) {
            Ok(g) => {
                builder.add(g);
            }
            Err(e) => warnings.push(format!("namespace `{name}`: glob `{glob}`: {e}")),
        }
    }
    Filter::Globs {
        relative: relative.build().unwrap_or_else(|_| GlobSet::empty()),
        absolute: absolute.build().unwrap_or_else(|_| GlobSet::empty()),
    }
}

/// `~` and `~/…` expanded from `$HOME`.
pub(crate) fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix('~'), crate::env::home_dir()) {
        (Some(""), Some(home)) => home,
        (Some(rest), Some(home)) if rest.starts_with('/') => home.join(&rest[1..]),
        _ => PathBuf::from(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn scope(prefix: Option<Prefix>, namespaces: BTreeMap<String, Namespace>) -> Scope {
        let config = Config {
            namespaces,
            ..Config::default()
        };
        Scope::resolve(
            prefix.as_ref(),
            Path::new("/p"),
            &config,
            vec![PathBuf::from("/extra")],
            &mut Vec::new(),
        )
    }

    fn accepts(s: &Scope, path: &str) -> bool {
        let path = Path::new(path);
        s.dir_of(path).is_some_and(|d| s.accepts(path, d))
    }

    #[test]
    fn plain_scope_is_project_and_additional_directories() {
        let s = scope(None, BTreeMap::new());
        assert!(accepts(&s, "/p/src/a.rs"));
        assert!(accepts(&s, "/extra/b.rs"));
        assert!(!accepts(&s, "/elsewhere/c.rs"));
        assert!(!accepts(&s, "/pp/c.rs"));
    }

    #[test]
    fn folder_matches_name_and_dot_name_directories_only() {
        let s = scope(Some(Prefix::Folder("claude".into())), BTreeMap::new());
        assert!(accepts(&s, "/p/.claude/settings.json"));
        assert!(accepts(&s, "/p/docs/claude/x.md"));
        assert!(!accepts(&s, "/p/docs/claude"));
        assert!(!accepts(&s, "/p/claude.md"));
        assert!(!accepts(&s, "/p/myclaude/x"));
    }

    #[test]
    fn inline_glob_matches_file_names() {
        let s = scope(Some(Prefix::Glob("*.md".into())), BTreeMap::new());
        assert!(accepts(&s, "/p/README.md"));
        assert!(accepts(&s, "/p/docs/api.MD"));
        assert!(!accepts(&s, "/p/md/x.rs"));
    }

    #[test]
    fn namespace_globs_are_relative_to_the_scope_directory() {
        let ns = BTreeMap::from([(
            "docs".to_string(),
            Namespace::Globs(vec!["docs/**".into(), "*.md".into(), "README*".into()]),
        )]);
        let s = scope(Some(Prefix::Namespace("docs".into())), ns);
        assert!(accepts(&s, "/p/docs/api.txt"));
        assert!(accepts(&s, "/p/CHANGES.md"));
        assert!(accepts(&s, "/p/README"));
        assert!(!accepts(&s, "/p/src/main.rs"));
        assert!(accepts(&s, "/extra/docs/x"));
    }

    #[test]
    fn confined_scope_keeps_only_what_is_within() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("dev/proj")).unwrap();
        std::fs::create_dir_all(root.join("other")).unwrap();
        let config = Config::default();
        let mut s = Scope::resolve(
            None,
            &root.join("dev"),
            &config,
            vec![root.join("other")],
            &mut Vec::new(),
        );
        s.confine(Within::new(&[root.join("dev/proj")]));
        // `other` has nothing within: dropped; `dev` keeps its meaning, searched at `proj`.
        assert_eq!(s.dirs, vec![root.join("dev")]);
        assert_eq!(s.search_dirs(), vec![root.join("dev/proj")]);
        assert!(accepts(&s, &format!("{}/dev/proj/a.rs", root.display())));
        assert!(!accepts(&s, &format!("{}/dev/b.rs", root.display())));
        assert!(!accepts(&s, &format!("{}/dev/proj2/b.rs", root.display())));
        assert!(!accepts(&s, &format!("{}/other/c.rs", root.display())));
        assert_eq!(
            s.within_below(&root.join("dev")),
            Some(vec![PathBuf::from("proj")])
        );
        assert_eq!(s.within_below(&root.join("dev/proj/src")), None);
        assert_eq!(s.within_below(&root.join("other")), Some(vec![]));
    }

    #[test]
    fn namespace_root_replaces_the_directories() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let ns = BTreeMap::from([(
            "dev".to_string(),
            Namespace::Root(root.to_string_lossy().into_owned()),
        )]);
        let s = scope(Some(Prefix::Namespace("dev".into())), ns);
        assert_eq!(s.dirs, vec![root.clone()]);
        assert!(accepts(&s, &format!("{}/x/y.rs", root.display())));
        assert!(!accepts(&s, "/p/src/a.rs"));
    }
}
