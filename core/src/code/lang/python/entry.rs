//! The commands Python projects declare (`code.get_overview`'s entry points):
//! `pyproject.toml`'s scripts, `setup.cfg`'s and `setup.py`'s `console_scripts`, each
//! `name = module:function`.

use crate::code::extract::{DeclaredEntry, EntryRuns};

/// The manifests read.
pub(super) const MANIFESTS: &[&str] = &["pyproject.toml", "setup.cfg", "setup.py"];

/// `module:function[.attr] [extras]` as the module and the function's last name.
fn target(value: &str) -> Option<(String, String)> {
    let value = value.split('[').next()?.trim();
    let (module, function) = value.split_once(':')?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    };
    let (module, function) = (module.trim(), function.trim());
    (ok(module) && ok(function)).then(|| {
        let last = function.rsplit('.').next().unwrap_or(function);
        (module.to_string(), last.to_string())
    })
}

/// The commands the manifest at `manifest` declares in `text`.
pub(super) fn declared(manifest: &str, text: &str) -> Vec<DeclaredEntry> {
    let file = manifest.rsplit('/').next().unwrap_or(manifest);
    let mut out = Vec::new();
    let mut add = |name: &str, value: &str| {
        if let Some((module, function)) = target(value) {
            let path = module.replace('.', "/");
            out.push(DeclaredEntry {
                name: name.trim().to_string(),
                declared_in: manifest.to_string(),
                target: value.trim().to_string(),
                runs: EntryRuns::Function {
                    function,
                    files: vec![format!("{path}.py"), format!("{path}/__init__.py")],
                },
            });
        }
    };
    match file {
        "pyproject.toml" => {
            let Ok(doc) = toml::from_str::<toml::Table>(text) else {
                return Vec::new();
            };
            let tables = [
                doc.get("project").and_then(|p| p.get("scripts")),
                doc.get("project").and_then(|p| p.get("gui-scripts")),
                doc.get("tool")
                    .and_then(|t| t.get("poetry"))
                    .and_then(|p| p.get("scripts")),
            ];
            for table in tables
                .into_iter()
                .flatten()
                .filter_map(toml::Value::as_table)
            {
                for (name, value) in table {
                    if let Some(value) = value.as_str() {
                        add(name, value);
                    }
                }
            }
        }
        "setup.cfg" => {
            // `[options.entry_points]`, `console_scripts =` / `gui_scripts =`, then one
            // `name = module:function` per (indented) line.
            let (mut section, mut scripts) = (false, false);
            for line in text.lines() {
                let trimmed = line.trim();
                if trimmed.starts_with('[') {
                    section = trimmed == "[options.entry_points]";
                    scripts = false;
                    continue;
                }
                if !section || trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
                    continue;
                }
                if !line.starts_with([' ', '\t']) {
                    let (key, rest) = trimmed.split_once('=').unwrap_or((trimmed, ""));
                    scripts = matches!(key.trim(), "console_scripts" | "gui_scripts");
                    if scripts && let Some((name, value)) = rest.split_once('=') {
                        add(name, value);
                    }
                } else if scripts && let Some((name, value)) = trimmed.split_once('=') {
                    add(name, value);
                }
            }
        }
        // Quoted `name = module:function` strings, in a file that declares scripts.
        "setup.py" if text.contains("console_scripts") || text.contains("gui_scripts") => {
            for quoted in text.split(['"', '\'']).skip(1).step_by(2) {
                if let Some((name, value)) = quoted.split_once('=')
                    && !name.trim().is_empty()
                    && name
                        .trim()
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                {
                    add(name, value);
                }
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(found: Vec<DeclaredEntry>) -> Vec<(String, String)> {
        found.into_iter().map(|d| (d.name, d.target)).collect()
    }

    #[test]
    fn targets_are_module_and_function() {
        assert_eq!(
            target(" pytest:console_main "),
            Some(("pytest".into(), "console_main".into()))
        );
        assert_eq!(
            target("pkg.cli:App.run [extra]"),
            Some(("pkg.cli".into(), "run".into()))
        );
        assert_eq!(target("no colon"), None);
        assert_eq!(target("a b:c"), None);
    }

    #[test]
    fn each_manifest_declares_its_scripts() {
        let setup = "setup(\n    entry_points={\n        'console_scripts': [\"tool = tool.main:run\", 'tool-admin=tool.admin:cli'],\n    },\n    description='a = b:c is not it',\n)\n";
        assert_eq!(
            names(declared("setup.py", setup)),
            [
                ("tool".to_string(), "tool.main:run".to_string()),
                ("tool-admin".to_string(), "tool.admin:cli".to_string())
            ]
        );
        assert!(
            declared("setup.py", "x = 'a = b:c'\n").is_empty(),
            "no console_scripts"
        );
        let cfg = "[options.entry_points]\nconsole_scripts =\n    w = widget.cli:helper\n[other]\nx = a:b\n";
        assert_eq!(
            names(declared("sub/setup.cfg", cfg)),
            [("w".to_string(), "widget.cli:helper".to_string())]
        );
        let toml = "[project.scripts]\nwidget = \"widget.cli:main\"\n";
        let found = declared("pyproject.toml", toml);
        assert_eq!(
            found[0].runs,
            EntryRuns::Function {
                function: "main".into(),
                files: vec!["widget/cli.py".into(), "widget/cli/__init__.py".into()]
            }
        );
        assert!(declared("pyproject.toml", "not toml [").is_empty());
    }
}
