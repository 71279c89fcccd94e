//! How C and C++ link (one family): one global namespace, seen through `#include`s (an
//! include names a file relative to the including one, or the nearest whose path ends
//! with it); a macro may only rename a name; a method calls its class's members without
//! `this`.

use crate::code::SymbolKind;
use crate::code::lang::{LanguageLinker, Modules, Reach, dir_of, join, normalize};

/// C's and C++'s rules.
pub(crate) struct Linking;

impl LanguageLinker for Linking {
    fn modules(&self) -> Box<dyn Modules> {
        Box::new(Includes)
    }

    /// A macro renames when its signature is `#define NAME OTHER` where `OTHER` is one
    /// identifier containing `NAME` (`z_deflate`, `_snprintf`: a prefix option, a
    /// platform's spelling). A macro that redirects to another name (`#define zmemcpy
    /// memcpy`) does not: it is a definition of its own.
    fn is_rename(&self, kind: Option<SymbolKind>, signature: Option<&str>) -> bool {
        if kind != Some(SymbolKind::Const) {
            return false;
        }
        let Some(body) = signature
            .map(|s| s.trim_start_matches('#').trim_start())
            .and_then(|s| s.strip_prefix("define"))
        else {
            return false;
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        match words.as_slice() {
            [name, other] => {
                other != name
                    && other.contains(name)
                    && other.chars().all(|c| c.is_alphanumeric() || c == '_')
            }
            _ => false,
        }
    }

    fn implicit_this(&self) -> bool {
        true
    }

    fn textual_includes(&self) -> bool {
        true
    }
}

struct Includes;

impl Modules for Includes {
    fn files(
        &mut self,
        reach: &mut dyn Reach,
        file: i64,
        module: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        let from = reach.rel(file)?;
        if let Some(p) = normalize(&join(dir_of(&from), module))
            && let Some(id) = reach.id_of(&p)?
        {
            return Ok(vec![id]);
        }
        let name = module.rsplit('/').next().unwrap_or(module);
        let stem = name.split('.').next().unwrap_or(name);
        reach.nearest_with_suffix(stem, module, &from)
    }
}
