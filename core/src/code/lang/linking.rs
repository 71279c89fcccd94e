//! What a language contributes to linking references (`index::link`): the files its
//! imports and paths name, and the few rules of scope in which languages differ. The
//! scope logic itself (a bare name, a path, a member, a value) is `index::link`'s, the
//! same for every language; it asks the language's [`LanguageLinker`] where they differ.
//!
//! A family of languages that see each other's symbols (TypeScript and JavaScript, C and
//! C++) has one linker ([`super::Family`]).

use std::path::Path;
use std::rc::Rc;

use super::Family;
use crate::code::SymbolKind;
use crate::code::extract::Binding;

/// How a family of languages links: its module resolution ([`LanguageLinker::modules`])
/// and its rules, each a property the shared scope logic asks for. Every rule has the
/// default most languages follow.
pub(crate) trait LanguageLinker: Sync {
    /// Its module resolution, for one linking run (it may keep what it learns).
    fn modules(&self) -> Box<dyn Modules>;

    /// The module a path through an import's name names: `binding` binds the path's
    /// first segment (`a` of `a.b.f()`), `rest` are the segments after it (`b`). `None`
    /// when such a path is no module (a value's fields, say). Not asked when paths are
    /// [`static`](LanguageLinker::static_paths).
    fn path_module(&self, _binding: &Binding, _rest: &[&str]) -> Option<String> {
        None
    }

    /// The stems of the files that stand for their directory (`mod` of `mod.rs`): a
    /// module resolution finds those by the directory's name (see `index::link`'s
    /// `Files`). The index's `key` column (schema 6) knows the same stems.
    fn directory_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// The name `binding` (one of a file's imports, of `name` in its module) is looked
    /// up by in its module: `name` itself by default.
    fn imported_name<'b>(&self, _binding: &'b Binding, name: &'b str) -> &'b str {
        name
    }

    /// The type a symbol (of `kind`, with `signature`, under `parent`) is a member of
    /// when that is not its parent: a Go method's receiver, a Ruby module's function.
    fn owner<'s>(
        &self,
        _parent: Option<(SymbolKind, &'s str)>,
        _kind: Option<SymbolKind>,
        _signature: Option<&'s str>,
    ) -> Option<&'s str> {
        None
    }

    /// Whether a symbol (of `kind`, with `signature`) only renames another (C's
    /// `#define deflate z_deflate`): what is written with its name means what it would
    /// without it, so it is no candidate.
    fn is_rename(&self, _kind: Option<SymbolKind>, _signature: Option<&str>) -> bool {
        false
    }

    /// The type of the value a symbol (of `kind`, with `signature`) gives, written as a
    /// reference's qualifier (see `ExtractedRef::qual`): what a function returns
    /// (`Foo`, `pkg.Foo`; `Self` for the type it is a member of), a variable's declared
    /// type, or `F()` for a variable holding what calling `F` returns. `None` when the
    /// definition does not say.
    fn gives(&self, _kind: Option<SymbolKind>, _signature: Option<&str>) -> Option<String> {
        None
    }

    /// The types a type (of `kind`, with `signature`) extends or implements, as its
    /// signature names them (`Base`, `mod.Base`): a member it does not define itself is
    /// looked up in them. Empty when the language's signatures do not say.
    fn bases(&self, _kind: Option<SymbolKind>, _signature: Option<&str>) -> Vec<String> {
        Vec::new()
    }

    /// The class a value's name says it holds, where the language's code names values
    /// after their class (Ruby's `context` holding a `Context`): asked for a member
    /// `member` of a value whose type nothing declares, and kept only when that class
    /// (or one it extends) defines the member.
    fn type_named_like(&self, _value: &str, _member: &str) -> Option<String> {
        None
    }

    /// Whether a method calls its class's other members without a receiver (an
    /// implicit `this`).
    fn implicit_this(&self) -> bool {
        false
    }

    /// Whether, of several definitions of a name in one scope, the last one is meant
    /// (not the first).
    fn last_definition_wins(&self) -> bool {
        false
    }

    /// Whether a call may mean a class or a module (a constructor call).
    fn calls_reach_types(&self) -> bool {
        true
    }

    /// Whether a file's imports pass names on to the files importing it (re-exports).
    fn imports_pass_on(&self) -> bool {
        false
    }

    /// Whether an import may name a member of a class (a static import): when its
    /// module defines no such top-level name, a member of the class there is meant.
    fn imports_reach_members(&self) -> bool {
        false
    }

    /// Whether a file sees the other files of its directory without an import (a
    /// package is a directory).
    fn packages_are_directories(&self) -> bool {
        false
    }

    /// Whether methods are defined at the top level, outside their type (then their
    /// [`owner`](LanguageLinker::owner) is their receiver's type).
    fn methods_outside_types(&self) -> bool {
        false
    }

    /// Whether bare names live in one global namespace seen through the files a file
    /// includes (its glob bindings), where conditional compilation may define a name
    /// more than once: the file's own definitions, then what it includes, then anywhere;
    /// several in the first place with any are ambiguous.
    fn textual_includes(&self) -> bool {
        false
    }

    /// Whether a glob binding (`include M`) mixes the members of a module into the
    /// file: its methods are bare names there.
    fn mixins(&self) -> bool {
        false
    }

    /// For a definition that only names another method of its class (Ruby's `alias new
    /// old`, `alias_method :new, :old`), that method's name: a call of it runs that
    /// method, which the linker links instead. None by default.
    fn alias_of(&self, _kind: Option<SymbolKind>, _signature: Option<&str>) -> Option<String> {
        None
    }

    /// Whether [`LanguageLinker::alias_of`] may say anything (the linker looks no
    /// further where it cannot).
    fn has_aliases(&self) -> bool {
        false
    }

    /// Whether the method of `signature` is one a call makes (Ruby's `attr_reader :a`,
    /// a `Struct.new(:a)` member), which a method of its name written in the same class
    /// overrides: it is meant only where no such method is. No by default.
    fn made_by_call(&self, _kind: Option<SymbolKind>, _signature: Option<&str>) -> bool {
        false
    }

    /// Whether the method of `signature` is the class's own, not its instances' (Ruby's
    /// `def self.m`). No by default.
    fn of_class(&self, _kind: Option<SymbolKind>, _signature: Option<&str>) -> bool {
        false
    }

    /// Whether a call of `name` on a value of no known class may mean the project's one
    /// method of that name (Ruby, where values carry no declared types: a name only
    /// the project defines, not the standard library). No by default.
    fn unique_member(&self, _name: &str) -> bool {
        false
    }

    /// Whether the classes values most often hold (Ruby's Array, Hash, String, …) have
    /// a member `name`: a call of it on a value says nothing of the value's class (see
    /// `LanguageExtractor::typed_by_use`). No by default.
    fn common_member(&self, _name: &str) -> bool {
        false
    }

    /// Whether the language's own library (Ruby's core and standard library) defines a
    /// method `name`. No by default.
    fn library_member(&self, _name: &str) -> bool {
        false
    }

    /// Whether the class or module written `path` (`Struct`, `Net.HTTP`) is one of the
    /// language's own library: what a class has from it is one of its
    /// [members](LanguageLinker::library_member). No by default.
    fn library_type(&self, _path: &str) -> bool {
        false
    }

    /// Whether a value of the library's class `ty` may be of any class, so that what it
    /// has is not known from `ty` (Ruby's `Object`, YARD's `@param c [Object]`; `Class`
    /// and `Module`: `Class.new(Base)` has its base's). No by default.
    fn of_any_class(&self, _ty: &str) -> bool {
        false
    }

    /// Whether a value named `value` holds a class, not an instance (Ruby's `klass`,
    /// `subcommand_class`): a call on it may be a class's own method. No by default.
    fn holds_class(&self, _value: &str) -> bool {
        false
    }

    /// Whether a method is called by its bare name, without parentheses (Ruby's `root`
    /// in `root.join`): a receiver written as a name is then what the method of that
    /// name gives, where no variable of the name is defined. No by default.
    fn bare_calls(&self) -> bool {
        false
    }

    /// Whether a bare name nothing nearer defines may mean the one top-level
    /// definition of it anywhere (one global namespace; several are ambiguous).
    fn global_names(&self) -> bool {
        false
    }

    /// Whether a path (`a::b::f`) names modules and types only, never a value: a path
    /// no module or type of the repository defines is outside it. Such a path is
    /// followed by [`Modules::walk`].
    fn static_paths(&self) -> bool {
        false
    }

    /// Whether a glob import of `module` brings only what the file defines itself (a
    /// test module's `use super::*`, inside the file): then it is not followed.
    fn glob_is_local(&self, _module: &str) -> bool {
        false
    }
}

/// A family's module resolution for one linking run.
pub(crate) trait Modules {
    /// The files a module written in `file` names (an import's, an include's), by id.
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>>;

    /// When paths are [`static`](LanguageLinker::static_paths): the path written in
    /// `file` followed through modules, giving the files of the last module it reaches
    /// and the segments left (an item, then its members); `None` when the path does not
    /// start in the repository.
    fn walk(
        &mut self,
        _reach: &mut dyn Reach,
        _file: i64,
        _segments: &[&str],
    ) -> rusqlite::Result<Option<(Vec<i64>, Vec<String>)>> {
        Ok(None)
    }

    /// The build unit `file` is in (a Rust crate: its directory), if the language
    /// places it in one.
    fn unit(&mut self, _reach: &mut dyn Reach, _file: i64) -> rusqlite::Result<Option<String>> {
        Ok(None)
    }
}

/// What module resolution reads of the index (from memory in a cold run, from the
/// database otherwise): its files by path and directory, and each file's bindings.
pub(crate) trait Reach {
    /// The repository root.
    fn root(&self) -> &Path;
    /// The family of `file`.
    fn family(&mut self, file: i64) -> rusqlite::Result<Family>;
    /// The path of `file` (relative, `/`-separated; empty when there is no such file).
    fn rel(&mut self, file: i64) -> rusqlite::Result<String>;
    /// The file at `rel`, if the index has one.
    fn id_of(&mut self, rel: &str) -> rusqlite::Result<Option<i64>>;
    /// Of the files whose key is `key` (the stem of their name, or for a
    /// [directory file](LanguageLinker::directory_files) their directory's name) and
    /// whose path ends with `suffix` (at a `/`), those nearest `from`.
    fn nearest_with_suffix(
        &mut self,
        key: &str,
        suffix: &str,
        from: &str,
    ) -> rusqlite::Result<Vec<i64>>;
    /// The directories holding files whose path ends with `suffix` (at a `/`), and
    /// the most segments of it when only a tail matches, with at least `min` matched.
    fn dirs_ending(&mut self, suffix: &str, min: usize) -> rusqlite::Result<Vec<String>>;
    /// The files of `family` in any of `dirs`, by id.
    fn in_dirs_of(&mut self, dirs: &[String], family: Family) -> rusqlite::Result<Vec<i64>>;
    /// The paths of every file of `family`, in no order.
    fn paths_of(&mut self, family: Family) -> rusqlite::Result<Vec<String>>;
    /// The names `file`'s imports bind, in the order written.
    fn bindings_of(&mut self, file: i64) -> rusqlite::Result<Rc<[Binding]>>;
}

/// The directory of a relative path (`""` at the root).
pub(crate) fn dir_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `rel` under `dir`.
pub(crate) fn join(dir: &str, rel: &str) -> String {
    if dir.is_empty() {
        rel.to_string()
    } else {
        format!("{dir}/{rel}")
    }
}

/// `a/./b/../c` → `a/c`; `None` when it climbs above the root.
pub(crate) fn normalize(path: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            _ => out.push(part),
        }
    }
    Some(out.join("/"))
}

/// The linker of a language that links nothing (Markdown, a language this build does
/// not know): every rule's default, no modules.
pub(super) struct Unlinked;

impl LanguageLinker for Unlinked {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(NoModules)
    }
}

/// Module resolution that finds no module.
pub(crate) struct NoModules;

impl Modules for NoModules {
    fn files(&mut self, _: &mut dyn Reach, _: i64, _: &str) -> rusqlite::Result<Vec<i64>> {
        Ok(Vec::new())
    }
}

/// The text after the balanced group `text` starts with (`(…)` or `[…]`), or `None`
/// when it does not start with `open`.
pub(crate) fn after_group(text: &str, open: char, close: char) -> Option<&str> {
    let rest = text.trim_start().strip_prefix(open)?;
    let mut depth = 1usize;
    for (at, c) in rest.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(&rest[at + 1..]);
            }
        }
    }
    None
}

/// The parts of a comma-separated list at its top level (not inside `()`, `[]`, `<>`),
/// trimmed, empty ones left out.
pub(crate) fn split_top_level(list: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut parts = Vec::new();
    for (at, c) in list.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty())
}

/// The types a class-like signature in the style of Java and TypeScript extends and
/// implements: the lists after ` extends ` and ` implements `, each type by its name
/// (`Base<T>` is `Base`).
pub(crate) fn heritage(signature: &str) -> Vec<String> {
    let mut out = Vec::new();
    for keyword in [" extends ", " implements "] {
        let Some((_, rest)) = signature.split_once(keyword) else {
            continue;
        };
        let rest = [" implements ", " extends ", "{"]
            .iter()
            .filter_map(|k| rest.find(k))
            .min()
            .map_or(rest, |end| &rest[..end]);
        out.extend(split_top_level(rest).filter_map(crate::code::extract::type_name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_signature_names_what_it_extends_and_implements() {
        assert_eq!(
            heritage("export class Sub<T> extends Base<T, Map<K, V>> implements I, J<T>"),
            ["Base", "I", "J"]
        );
        assert_eq!(heritage("public interface I extends A, b.B"), ["A", "b.B"]);
        assert!(heritage("class Plain").is_empty());
        let parts: Vec<&str> = split_top_level("A, B[int, str], metaclass=M,").collect();
        assert_eq!(parts, ["A", "B[int, str]", "metaclass=M"]);
    }

    #[test]
    fn paths_normalize_within_the_root() {
        assert_eq!(normalize("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("../x"), None);
    }
}
