//! How Java links: a package is a directory, which its files share without an import;
//! an import names a class's file (`a.b.C` → `a/b/C.java`, the nearest) or a package
//! (`a.b.*`); a static import names a member of a class; a method calls its class's
//! members without `this`.

use crate::code::SymbolKind;
use crate::code::lang::{LanguageLinker, Modules, Reach, heritage};

/// Java's rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(JavaModules)
    }

    fn bases(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> Vec<String> {
        // `class A<T> extends Base<T> implements I, J`, `interface I extends J`
        match (kind, signature) {
            (Some(SymbolKind::Class | SymbolKind::Interface | SymbolKind::Enum), Some(s)) => {
                heritage(s)
            }
            _ => Vec::new(),
        }
    }

    fn implicit_this(&self) -> bool {
        true
    }

    fn imports_reach_members(&self) -> bool {
        true
    }

    fn packages_are_directories(&self) -> bool {
        true
    }
}

struct JavaModules;

impl Modules for JavaModules {
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        let from = reach.rel(file)?;
        let path = module.replace('.', "/");
        let last = path.rsplit('/').next().unwrap_or(&path).to_string();
        let class = reach.nearest_with_suffix(&last, &format!("{path}.java"), &from)?;
        if !class.is_empty() {
            return Ok(class);
        }
        // A package (`import a.b.*`).
        let dirs = reach.dirs_ending(&path, path.split('/').count())?;
        let family = reach.family(file)?;
        reach.in_dirs_of(&dirs, family)
    }
}
