//! How Go links: a package is a directory, which its files share without an import; an
//! import path (`github.com/a/b`, `net/http`) names the directory it ends with; a method
//! is defined at the top level, a member of its receiver's type.

use crate::code::SymbolKind;
use crate::code::extract::Binding;
use crate::code::lang::{LanguageLinker, Modules, Reach};

/// Go's rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(GoModules)
    }

    fn path_module(&self, binding: &Binding, rest: &[&str]) -> Option<String> {
        // `import "a/b"` then `b.F()`.
        (binding.name.is_none() && rest.is_empty()).then(|| binding.module.clone())
    }

    fn owner<'s>(
        &self,
        _parent: Option<(SymbolKind, &'s str)>,
        kind: Option<SymbolKind>,
        signature: Option<&'s str>,
    ) -> Option<&'s str> {
        if kind == Some(SymbolKind::Method) {
            signature.and_then(receiver)
        } else {
            None
        }
    }

    fn packages_are_directories(&self) -> bool {
        true
    }

    fn methods_outside_types(&self) -> bool {
        true
    }
}

/// The receiver type of a Go method's signature: `FlagSet` in
/// `func (f *FlagSet) Bool(…)`, `List` in `func (l List[T]) Len()`.
fn receiver(signature: &str) -> Option<&str> {
    let rest = signature
        .strip_prefix("func")?
        .trim_start()
        .strip_prefix('(')?;
    let receiver = &rest[..rest.find(')')?];
    let ty = receiver.split_whitespace().last()?.trim_start_matches('*');
    let ty = ty.split('[').next()?;
    (!ty.is_empty()).then_some(ty)
}

struct GoModules;

impl Modules for GoModules {
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        // A standard library path (`net/http`) has no dot in its first segment; a
        // module's own packages are matched by at least their last two segments, or by
        // the whole path.
        let dotted = module.split('/').next().is_some_and(|s| s.contains('.'));
        let parts = module.split('/').count();
        let min = if dotted { 1 } else { parts.clamp(1, 2) };
        let dirs = reach.dirs_ending(module, min)?;
        let family = reach.family(file)?;
        reach.in_dirs_of(&dirs, family)
    }
}
