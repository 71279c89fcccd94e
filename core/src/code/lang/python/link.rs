//! How Python links: modules are files (`a/b.py`) and packages (`a/b/__init__.py`),
//! found relative to the importing file (`from ..a import b`) or by the path's tail
//! nearest it; a package's `__init__` passes on what it imports; of several definitions
//! of a name in one scope, the last one is meant.

use crate::code::SymbolKind;
use crate::code::extract::{Binding, type_name};
use crate::code::lang::{LanguageLinker, Modules, Reach, dir_of, join, normalize};

/// Python's rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(PythonModules)
    }

    fn path_module(&self, binding: &Binding, rest: &[&str]) -> Option<String> {
        // `import a.b` then `b.c.f()`, `from a import b` then `b.f()`.
        let module = match binding.name.as_deref() {
            Some(name) => {
                let sep = if binding.module.ends_with('.') {
                    ""
                } else {
                    "."
                };
                format!("{}{sep}{name}", binding.module)
            }
            None => binding.module.clone(),
        };
        Some(if rest.is_empty() {
            module
        } else {
            format!("{module}.{}", rest.join("."))
        })
    }

    fn directory_files(&self) -> &'static [&'static str] {
        &["__init__"]
    }

    fn last_definition_wins(&self) -> bool {
        true
    }

    fn imports_pass_on(&self) -> bool {
        true
    }

    fn bases(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Vec<String> {
        // `class A(Base, mod.Other, metaclass=M)`
        let Some(list) = signature
            .filter(|_| kind == Some(SymbolKind::Class))
            .and_then(|s| s.find('(').map(|at| &s[at..]))
            .and_then(|s| s.strip_prefix('('))
            .and_then(|s| s.rsplit_once(')').map(|(inner, _)| inner))
        else {
            return Vec::new();
        };
        crate::code::lang::split_top_level(list)
            .filter(|b| !b.contains('='))
            .filter_map(type_name)
            .collect()
    }

    fn library_type(&self, path: &str) -> bool {
        builtin_class(path)
    }

    fn gives(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Option<String> {
        if !matches!(kind?, SymbolKind::Fn | SymbolKind::Method) {
            return None;
        }
        let (_, returns) = signature?.rsplit_once("->")?;
        annotated_type(returns)
    }
}

/// Whether `path` names one of Python's builtin classes or a container of `typing` or
/// `collections` (`list`, `dict`, `t.Dict`, `MutableMapping`), by its last segment.
pub(super) fn builtin_class(path: &str) -> bool {
    const NAMES: &[&str] = &[
        "AsyncGenerator",
        "AsyncIterable",
        "AsyncIterator",
        "Awaitable",
        "ChainMap",
        "Collection",
        "Container",
        "Coroutine",
        "Counter",
        "DefaultDict",
        "Deque",
        "Dict",
        "FrozenSet",
        "Generator",
        "ItemsView",
        "Iterable",
        "Iterator",
        "KeysView",
        "List",
        "Mapping",
        "MappingProxyType",
        "MutableMapping",
        "MutableSequence",
        "MutableSet",
        "OrderedDict",
        "Sequence",
        "Set",
        "Tuple",
        "ValuesView",
        "bool",
        "bytearray",
        "bytes",
        "complex",
        "defaultdict",
        "deque",
        "dict",
        "float",
        "frozenset",
        "int",
        "list",
        "memoryview",
        "range",
        "set",
        "str",
        "tuple",
    ];
    let last = path.rsplit('.').next().unwrap_or(path);
    NAMES.binary_search(&last).is_ok()
}

/// The class an annotation names: `Foo` of `"Foo"`, `Optional[Foo]`, `Foo | None`,
/// `mod.Foo`, `type[Foo]` (the class itself, whose members are its); `None` for one that
/// names none.
pub(super) fn annotated_type(text: &str) -> Option<String> {
    let quotes = ['"', '\''];
    let mut t = text
        .trim()
        .trim_end_matches(':')
        .trim()
        .trim_matches(quotes);
    for wrapper in [
        "Optional[",
        "t.Optional[",
        "typing.Optional[",
        "type[",
        "Type[",
        "t.Type[",
        "typing.Type[",
    ] {
        if let Some(inner) = t.strip_prefix(wrapper).and_then(|i| i.strip_suffix(']')) {
            t = inner.trim();
        }
    }
    let t = t.split('|').map(str::trim).find(|p| *p != "None")?;
    // (`Any` and `object` name no class whose members a value has.)
    type_name(t.trim_matches(quotes)).filter(|t| {
        !matches!(
            t.as_str(),
            "None" | "Any" | "typing.Any" | "t.Any" | "object"
        )
    })
}

struct PythonModules;

impl Modules for PythonModules {
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        let from = reach.rel(file)?;
        python_module(reach, &from, module)
    }
}

/// The files of `module` (`a.b`, `..a`) imported from the file at `from`.
fn python_module(reach: &mut dyn Reach, from: &str, module: &str) -> rusqlite::Result<Vec<i64>> {
    let dots = module.chars().take_while(|c| *c == '.').count();
    let rest = &module[dots..];
    let parts: Vec<&str> = rest.split('.').filter(|p| !p.is_empty()).collect();
    if dots > 0 {
        let mut dir = dir_of(from).to_string();
        for _ in 1..dots {
            dir = dir_of(&dir).to_string();
        }
        let base = join(&dir, &parts.join("/"));
        for p in [format!("{base}.py"), join(&base, "__init__.py")] {
            if let Some(id) = normalize(&p).map_or(Ok(None), |p| reach.id_of(&p))? {
                return Ok(vec![id]);
            }
        }
        return Ok(Vec::new());
    }
    let Some(last) = parts.last() else {
        return Ok(Vec::new());
    };
    let path = parts.join("/");
    let found = reach.nearest_with_suffix(last, &format!("{path}.py"), from)?;
    if !found.is_empty() {
        return Ok(found);
    }
    reach.nearest_with_suffix(last, &format!("{path}/__init__.py"), from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_return_annotation_names_the_class_of_what_a_call_gives() {
        let gives = |sig| Linking.gives(Some(SymbolKind::Fn), Some(sig));
        assert_eq!(
            gives("def get() -> \"Console\"").as_deref(),
            Some("Console")
        );
        assert_eq!(
            gives("def get() -> Optional[\"Console\"]").as_deref(),
            Some("Console")
        );
        assert_eq!(
            gives("def get() -> None | rich.Console").as_deref(),
            Some("rich.Console")
        );
        // A class returned: its members are the class's.
        assert_eq!(
            gives("def get() -> type[Response]").as_deref(),
            Some("Response")
        );
        assert_eq!(
            gives("def get() -> t.Optional[t.Type[\"Response\"]]").as_deref(),
            Some("Response")
        );
        assert_eq!(
            gives("def get() -> Optional[Type[\"Response\"]]").as_deref(),
            Some("Response")
        );
        assert_eq!(gives("def get() -> Any"), None);
        assert_eq!(gives("def get() -> t.Optional[typing.Any]"), None);
        assert_eq!(gives("def get(x: int) -> None"), None);
        assert_eq!(gives("def get(x: int)"), None);
        assert_eq!(
            Linking.gives(Some(SymbolKind::Class), Some("class A")),
            None
        );
    }

    #[test]
    fn a_class_extends_what_its_parentheses_name_but_keywords() {
        let bases = |sig| Linking.bases(Some(SymbolKind::Class), Some(sig));
        assert_eq!(
            bases("class A(Base, mod.Other, Generic[T], metaclass=Meta)"),
            ["Base", "mod.Other", "Generic"]
        );
        assert!(bases("class A").is_empty());
        assert!(
            Linking
                .bases(Some(SymbolKind::Fn), Some("def f(x)"))
                .is_empty()
        );
    }
}
