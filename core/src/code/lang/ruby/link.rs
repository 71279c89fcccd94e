//! How Ruby links: one global namespace (no imports: a name defined once at the top
//! level anywhere is meant where nothing nearer defines it); `include M` mixes a
//! module's methods in; a module's functions are its members; a call is a method's,
//! never a class's (`Array(x)` is Kernel's); a method calls its class's members without
//! `self`.

use crate::code::SymbolKind;
use crate::code::lang::{LanguageLinker, Modules, NoModules};

/// Ruby's rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        // Its glob bindings are mixins (`include M`: a module, not a file), and
        // `require` binds no name.
        Box::new(NoModules)
    }

    fn owner<'s>(
        &self,
        parent: Option<(SymbolKind, &'s str)>,
        kind: Option<SymbolKind>,
        _signature: Option<&'s str>,
    ) -> Option<&'s str> {
        // A module's methods are its own (called on it, or mixed in), not top-level
        // functions; the members `Loc = Struct.new(:expression)` makes are the
        // constant's (the class it holds).
        match parent {
            Some((SymbolKind::Mod | SymbolKind::Const, owner))
                if matches!(kind, Some(SymbolKind::Method | SymbolKind::Fn)) =>
            {
                Some(owner)
            }
            _ => None,
        }
    }

    fn bases(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Vec<String> {
        // `class If < Block`, `class Render < Liquid::Tag`: the class it extends, by its
        // last segment (a class is one global name).
        let Some(signature) = signature.filter(|_| kind == Some(SymbolKind::Class)) else {
            return Vec::new();
        };
        let Some((_, base)) = signature.split_once('<') else {
            return Vec::new();
        };
        // The path as written, its segments joined by `.` (`Format2::CountryDefiner` →
        // `Format2.CountryDefiner`): a class of that name in several namespaces is
        // told apart by it.
        let base = base.split([';', '#']).next().unwrap_or("").trim();
        // `class Env < Options.new(:a, :b)`: a class `Options.new` makes (a `Struct`'s
        // subclass, say) extends `Options`.
        // (`Class.new(Base)` makes a subclass of its argument: not read.)
        let base = match base.split_once(".new") {
            Some(("Class" | "::Class", _)) => return Vec::new(),
            Some((made_by, rest)) if rest.is_empty() || rest.starts_with('(') => made_by,
            _ => base,
        };
        let segments: Vec<&str> = base.trim_start_matches("::").split("::").collect();
        if segments.iter().all(|s| {
            s.starts_with(|c: char| c.is_ascii_uppercase())
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        }) {
            vec![segments.join(".")]
        } else {
            Vec::new()
        }
    }

    fn type_named_like(&self, value: &str, member: &str) -> Option<String> {
        // `parse_context` → `ParseContext`: a local, a parameter or an attribute in
        // snake case. A name of one word names a value of Ruby's own classes too often
        // (in Rack, `body` is whatever an app returns, an Array or a proxy, not
        // `Chunked::Body`, and `files` a lambda, not `Rack::Files`): it says its class
        // only for a member that the classes values most often hold do not have
        // (`context.evaluate`, `node.stop`, not `body.each` nor `files.call`).
        let words = value.split('_').filter(|w| !w.is_empty()).count();
        if words == 1 && value_method(member) {
            return None;
        }
        super::camel_case(value)
    }

    fn implicit_this(&self) -> bool {
        true
    }

    fn calls_reach_types(&self) -> bool {
        false
    }

    fn mixins(&self) -> bool {
        true
    }

    fn global_names(&self) -> bool {
        true
    }

    fn bare_calls(&self) -> bool {
        true
    }

    fn common_member(&self, name: &str) -> bool {
        value_method(name)
    }

    fn library_member(&self, name: &str) -> bool {
        core_method(name)
    }

    fn library_type(&self, path: &str) -> bool {
        static NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
            let mut names: Vec<String> = include_str!("core_classes.txt")
                .lines()
                .map(|n| n.replace("::", "."))
                .collect();
            names.sort_unstable();
            names
        });
        NAMES
            .binary_search_by(|n| n.as_str().cmp(path.trim_start_matches('.')))
            .is_ok()
    }

    fn of_any_class(&self, ty: &str) -> bool {
        // The root classes, and the classes of classes and modules made at run time.
        matches!(ty, "Object" | "BasicObject" | "Class" | "Module")
    }

    fn holds_class(&self, value: &str) -> bool {
        // `klass`, `cls`, `subclass` (of `def self.inherited(subclass)`),
        // `subcommand_class`.
        matches!(value, "klass" | "cls" | "subclass")
            || value.ends_with("_class")
            || value.ends_with("_klass")
    }

    fn alias_of(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Option<String> {
        // `alias new old`, `alias :new :old`, `alias_method :new, :old`,
        // `alias_method "new", "old"`.
        let signature = signature
            .filter(|_| kind == Some(SymbolKind::Method))?
            .trim();
        let args = signature
            .strip_prefix("alias_method")
            .or_else(|| signature.strip_prefix("alias "))?;
        let old = args
            .split(|c: char| c == ',' || c == '(' || c == ')' || c.is_whitespace())
            .map(|a| a.trim_matches(|c| c == ':' || c == '"' || c == '\''))
            .filter(|a| !a.is_empty())
            .nth(1)?;
        (!old.starts_with('#')).then(|| old.to_string())
    }

    fn has_aliases(&self) -> bool {
        true
    }

    fn made_by_call(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> bool {
        // Not `def`, nor `alias` (which names what another method runs).
        kind == Some(SymbolKind::Method)
            && signature.is_some_and(|s| {
                let s = s.trim_start();
                !s.starts_with("def ") && !s.starts_with("alias")
            })
    }

    fn of_class(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> bool {
        // `def self.m`, `def Foo.m` (not what `class << self` holds: its signature does
        // not say it).
        kind == Some(SymbolKind::Method)
            && signature
                .and_then(|s| s.trim_start().strip_prefix("def "))
                .and_then(|s| s.split(['(', ' ', '=']).next())
                .is_some_and(|head| head.contains('.'))
    }

    fn unique_member(&self, name: &str) -> bool {
        // A name Ruby's core or standard library also defines may be theirs
        // (`x.split`, `io.read`): never taken for the project's.
        !core_method(name)
    }
}

/// Whether Ruby's core or common standard library defines a method `name`
/// (`core_methods.txt`, made by `core_methods.rb`).
fn core_method(name: &str) -> bool {
    static NAMES: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| sorted(include_str!("core_methods.txt")));
    NAMES.binary_search(&name).is_ok()
}

/// Whether the classes values most often hold (Array, Hash, String, Proc, …) have a
/// public method `name` (`value_methods.txt`, made by `core_methods.rb values`).
fn value_method(name: &str) -> bool {
    static NAMES: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| sorted(include_str!("value_methods.txt")));
    NAMES.binary_search(&name).is_ok()
}

fn sorted(list: &'static str) -> Vec<&'static str> {
    let mut names: Vec<&str> = list.lines().collect();
    names.sort_unstable();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alias_names_the_method_it_runs() {
        let of = |sig| Linking.alias_of(Some(SymbolKind::Method), Some(sig));
        assert_eq!(
            of("alias_method :t, :translate").as_deref(),
            Some("translate")
        );
        assert_eq!(
            of("alias_method(:t, :translate)").as_deref(),
            Some("translate")
        );
        assert_eq!(
            of("alias_method \"[]\", \"fetch\"").as_deref(),
            Some("fetch")
        );
        assert_eq!(of("alias to_s inspect").as_deref(), Some("inspect"));
        assert_eq!(of("alias :to_s :inspect # why").as_deref(), Some("inspect"));
        assert_eq!(of("def alias_method(a, b)"), None);
        assert_eq!(of("attr_reader :a, :b"), None);
        assert_eq!(
            Linking.alias_of(Some(SymbolKind::Class), Some("alias a b")),
            None
        );
    }

    #[test]
    fn a_class_extends_the_class_after_its_less_than() {
        let bases = |sig| Linking.bases(Some(SymbolKind::Class), Some(sig));
        assert_eq!(bases("class If < Block"), ["Block"]);
        assert_eq!(bases("class Render < Liquid::Tag # a tag"), ["Liquid.Tag"]);
        assert_eq!(
            bases("class Error < ::StandardError; end"),
            ["StandardError"]
        );
        // A class `X.new` makes extends `X`; an expression is no class name.
        assert_eq!(bases("class A < Struct.new(:a)"), ["Struct"]);
        assert_eq!(bases("class Env < Options.new(:url,"), ["Options"]);
        assert!(bases("class A < Class.new(Base) { }").is_empty());
        assert!(bases("class A < make(:x)").is_empty());
        assert!(bases("class Plain").is_empty());
        assert!(
            Linking
                .bases(Some(SymbolKind::Mod), Some("module M < X"))
                .is_empty()
        );
    }

    #[test]
    fn a_value_named_as_a_class_holds_one() {
        for class in ["klass", "cls", "subclass", "subcommand_class", "base_klass"] {
            assert!(Linking.holds_class(class), "{class}");
        }
        for value in ["klasses", "classic", "sub", "node", "class_name"] {
            assert!(!Linking.holds_class(value), "{value}");
        }
    }

    #[test]
    fn a_value_in_snake_case_names_its_class_in_camel_case() {
        let named = |v| Linking.type_named_like(v, "evaluate");
        assert_eq!(named("parse_context").as_deref(), Some("ParseContext"));
        assert_eq!(named("resource_limits").as_deref(), Some("ResourceLimits"));
        assert_eq!(named("utf8_string").as_deref(), Some("Utf8String"));
        assert_eq!(named("context").as_deref(), Some("Context"));
        for not_a_name in ["Context", "@context", "x?", "_tmp", "a-b", "_"] {
            assert_eq!(named(not_a_name), None, "{not_a_name}");
        }
        // One word, for a member Ruby's own classes have: no class.
        assert_eq!(Linking.type_named_like("body", "each"), None);
        assert_eq!(Linking.type_named_like("files", "call"), None);
        // A member only less common classes have (a Thread's `stop`): the name says it.
        assert_eq!(
            Linking.type_named_like("node", "stop").as_deref(),
            Some("Node")
        );
        assert_eq!(
            Linking.type_named_like("body_part", "each").as_deref(),
            Some("BodyPart")
        );
    }
}
