//! How Ruby links: one global namespace (no imports: a name defined once at the top
//! level anywhere is meant where nothing nearer defines it); `include M` mixes a
//! module's methods in; a module's functions are its members; a call is a method's,
//! never a class's (`Array(x)` is Kernel's); a method calls its class's members without
//! `self`.

use crate::code::SymbolKind;
use crate::code::extract::last_segment;
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
        // functions.
        match parent {
            Some((SymbolKind::Mod, module))
                if matches!(kind, Some(SymbolKind::Method | SymbolKind::Fn)) =>
            {
                Some(module)
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
        let base = base.split([';', '#']).next().unwrap_or("").trim();
        let base = last_segment(base.trim_start_matches("::"));
        if base.starts_with(|c: char| c.is_ascii_uppercase())
            && base.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            vec![base.to_string()]
        } else {
            Vec::new()
        }
    }

    fn type_named_like(&self, value: &str) -> Option<String> {
        // `parse_context` → `ParseContext`: a local, a parameter or an attribute in
        // snake case, of two words at least. One word names too many things: in Rack,
        // `body` is whatever an app returns (an Array, a proxy), not `Chunked::Body`,
        // and `files` a lambda, not `Rack::Files`.
        if !value.starts_with(|c: char| c.is_ascii_lowercase())
            || !value
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            || value.split('_').filter(|w| !w.is_empty()).count() < 2
        {
            return None;
        }
        let mut class = String::with_capacity(value.len());
        for word in value.split('_').filter(|w| !w.is_empty()) {
            let mut chars = word.chars();
            class.extend(chars.next().map(|c| c.to_ascii_uppercase()));
            class.push_str(chars.as_str());
        }
        Some(class)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_extends_the_class_after_its_less_than() {
        let bases = |sig| Linking.bases(Some(SymbolKind::Class), Some(sig));
        assert_eq!(bases("class If < Block"), ["Block"]);
        assert_eq!(bases("class Render < Liquid::Tag # a tag"), ["Tag"]);
        assert_eq!(
            bases("class Error < ::StandardError; end"),
            ["StandardError"]
        );
        // `Class.new(Base)` or an expression is no class name.
        assert!(bases("class A < Struct.new(:a)").is_empty());
        assert!(bases("class Plain").is_empty());
        assert!(
            Linking
                .bases(Some(SymbolKind::Mod), Some("module M < X"))
                .is_empty()
        );
    }

    #[test]
    fn a_value_in_snake_case_names_its_class_in_camel_case() {
        let named = |v| Linking.type_named_like(v);
        assert_eq!(named("parse_context").as_deref(), Some("ParseContext"));
        assert_eq!(named("resource_limits").as_deref(), Some("ResourceLimits"));
        assert_eq!(named("utf8_string").as_deref(), Some("Utf8String"));
        for not_a_name in [
            "context", "body", "p", "Context", "@context", "x?", "_tmp", "a-b",
        ] {
            assert_eq!(named(not_a_name), None, "{not_a_name}");
        }
    }
}
