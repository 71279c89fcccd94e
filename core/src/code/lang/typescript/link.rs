//! How TypeScript and JavaScript link (one family): a module is a relative path
//! (`./user`, `../lib/index.js`) to a file of either language, tried with each extension
//! and as a directory's `index`; a package's name (`react`) is outside the repository.
//! `export … from` passes names on; a default import binds the name the file gives it.

use crate::code::SymbolKind;
use crate::code::extract::{Binding, type_name};
use crate::code::lang::{LanguageLinker, Modules, Reach, after_group, dir_of, join, normalize};

/// TypeScript's and JavaScript's rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(TsModules)
    }

    fn path_module(&self, binding: &Binding, rest: &[&str]) -> Option<String> {
        // `import * as m from './m'` then `m.f()`.
        (binding.name.is_none() && rest.is_empty()).then(|| binding.module.clone())
    }

    fn directory_files(&self) -> &'static [&'static str] {
        &["index"]
    }

    fn imported_name<'b>(&self, binding: &'b Binding, name: &'b str) -> &'b str {
        // `import x from './a'`: `a`'s default export, known in `a` by the name it is
        // imported as (the index binds no `default`).
        if name == "default" {
            &binding.local
        } else {
            name
        }
    }

    fn imports_pass_on(&self) -> bool {
        true
    }

    fn bases(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Vec<String> {
        // `class A<T> extends Base<T> implements I, J`
        let Some(signature) = signature.filter(|_| kind == Some(SymbolKind::Class)) else {
            return Vec::new();
        };
        crate::code::lang::heritage(signature)
    }

    fn gives(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Option<String> {
        if !matches!(kind?, SymbolKind::Fn | SymbolKind::Method) {
            return None;
        }
        let signature = signature?;
        let returns = after_group(&signature[signature.find('(')?..], '(', ')')?;
        let returns = returns.trim_start().strip_prefix(':')?;
        // `Foo | undefined`: the one type that is not nothing.
        let t = returns
            .split('|')
            .map(str::trim)
            .find(|t| !matches!(*t, "undefined" | "null" | ""))?;
        if t.starts_with(['{', '(', '[', '\'', '"']) {
            return None;
        }
        type_name(t).filter(|t| !matches!(t.as_str(), "this" | "void" | "any" | "unknown"))
    }
}

struct TsModules;

impl Modules for TsModules {
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        let from = reach.rel(file)?;
        ts_module(reach, &from, module)
    }
}

/// The file of `module` (`./a`, `../b.js`) imported from the file at `from`.
fn ts_module(reach: &mut dyn Reach, from: &str, module: &str) -> rusqlite::Result<Vec<i64>> {
    if !module.starts_with('.') {
        return Ok(Vec::new());
    }
    let Some(base) = normalize(&join(dir_of(from), module)) else {
        return Ok(Vec::new());
    };
    let stripped = [".js", ".jsx", ".mjs", ".cjs"]
        .iter()
        .find_map(|ext| base.strip_suffix(ext));
    let mut tries = vec![base.clone()];
    let exts = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];
    for stem in [Some(base.as_str()), stripped].into_iter().flatten() {
        for ext in exts {
            tries.push(format!("{stem}.{ext}"));
        }
    }
    for ext in exts {
        tries.push(format!("{base}/index.{ext}"));
    }
    for p in &tries {
        if let Some(id) = reach.id_of(p)? {
            return Ok(vec![id]);
        }
    }
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_return_type_names_the_type_of_what_a_call_gives() {
        let gives = |sig| Linking.gives(Some(SymbolKind::Fn), Some(sig));
        assert_eq!(
            gives("export function open(path: string): Store").as_deref(),
            Some("Store")
        );
        assert_eq!(
            gives("get(f: (a: number) => void): Store | undefined").as_deref(),
            Some("Store")
        );
        assert_eq!(gives("load(): Promise<Store>").as_deref(), Some("Promise"));
        assert_eq!(gives("run(): void"), None);
        assert_eq!(gives("pair(): [A, B]"), None);
        assert_eq!(gives("run()"), None);
    }
}
