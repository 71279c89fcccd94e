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
