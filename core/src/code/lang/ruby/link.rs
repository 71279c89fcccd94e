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
}
