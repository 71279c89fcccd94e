//! How Go links: a package is a directory, which its files share without an import; an
//! import path (`github.com/a/b`, `net/http`) names the directory it ends with; a method
//! is defined at the top level, a member of its receiver's type.

use crate::code::SymbolKind;
use crate::code::extract::Binding;
use crate::code::lang::{LanguageLinker, Modules, Reach, after_group};

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

    fn gives(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Option<String> {
        let signature = signature?;
        match kind? {
            SymbolKind::Fn | SymbolKind::Method => result(signature),
            SymbolKind::Var | SymbolKind::Const => var_type(signature),
            _ => None,
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

/// The (first) result type of a function's signature: `FlagSet` of
/// `func NewFlagSet(name string) *FlagSet`, `Flag` of
/// `func (f *FlagSet) lookup(n string) (*Flag, error)`.
fn result(signature: &str) -> Option<String> {
    let mut rest = signature.strip_prefix("func")?.trim_start();
    if rest.starts_with('(') {
        rest = after_group(rest, '(', ')')?.trim_start();
    }
    let name_end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    rest = &rest[name_end..];
    if rest.starts_with('[') {
        rest = after_group(rest, '[', ']')?;
    }
    let mut result = after_group(rest, '(', ')')?.trim();
    if let Some(inner) = result.strip_prefix('(') {
        // `(v *T, err error)`: the first result, its type after any name.
        let first = inner.split([',', ')']).next()?.trim();
        result = first.rsplit(' ').next()?;
    }
    type_of(result)
}

/// A type written in Go (`*pkg.T`, `T[int]`) as a qualifier; `None` for one that is no
/// named type (a slice, map, channel, function or literal type).
fn type_of(text: &str) -> Option<String> {
    let t = text.trim().trim_start_matches('*');
    if t.is_empty()
        || t.starts_with(['[', '('])
        || t.starts_with("map[")
        || t.starts_with("chan")
        || t.starts_with("func")
        || t.starts_with("struct")
        || t.starts_with("interface")
    {
        return None;
    }
    crate::code::extract::type_name(t)
}

/// A package-level variable's type, from its spec's first line: declared
/// (`v T`, `v T = …`), a composite literal's (`v = &T{…}`), or what the call it holds
/// returns (`v = NewT(…)`: `NewT()`).
fn var_type(signature: &str) -> Option<String> {
    let (names, value) = match signature.split_once('=') {
        Some((names, value)) => (names.trim(), Some(value.trim())),
        None => (signature.trim(), None),
    };
    // `a, b T`: the type follows the last name.
    let declared = names.rsplit(',').next()?.trim().split_once(' ');
    if let Some((_, ty)) = declared {
        return type_of(ty);
    }
    let value = value?.trim_start_matches('&');
    if let Some(at) = value.find('{') {
        return type_of(&value[..at]);
    }
    let callee = crate::code::extract::callee_of(value)?;
    let plain = callee.split('.').all(crate::code::extract::plain_segment);
    (plain && callee != "new").then(|| format!("{callee}()"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_function_or_variable_gives_is_read_from_its_signature() {
        let gives = |kind, sig| Linking.gives(Some(kind), Some(sig));
        let f = SymbolKind::Fn;
        assert_eq!(
            gives(f, "func New(name string) *FlagSet").as_deref(),
            Some("FlagSet")
        );
        assert_eq!(
            gives(
                SymbolKind::Method,
                "func (f *FlagSet) lookup(n string) (*Flag, error)"
            )
            .as_deref(),
            Some("Flag")
        );
        assert_eq!(
            gives(f, "func pair() (v *pkg.T, err error)").as_deref(),
            Some("pkg.T")
        );
        assert_eq!(
            gives(f, "func Map[K comparable](m map[K]int) List[K]").as_deref(),
            Some("List")
        );
        assert_eq!(gives(f, "func names() []string"), None);
        assert_eq!(gives(f, "func run()"), None);
        let v = SymbolKind::Var;
        assert_eq!(
            gives(v, "CommandLine = NewFlagSet(os.Args[0], ExitOnError)").as_deref(),
            Some("NewFlagSet()")
        );
        assert_eq!(
            gives(v, "std = &Printer{out: os.Stdout}").as_deref(),
            Some("Printer")
        );
        assert_eq!(gives(v, "a, b Config").as_deref(), Some("Config"));
        assert_eq!(gives(v, "count = 3"), None);
        assert_eq!(gives(v, "buf = new(bytes.Buffer)"), None);
    }
}
