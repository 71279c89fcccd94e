//! Path confinement: every path parameter an operation declares is resolved (relative
//! paths against the project, the first root), canonicalised and refused when it lies
//! outside every root, through `..` or a symbolic link; absent ones default to the
//! project or the roots. Operations then run confined to the roots ([`call_guarded`]).

use std::io::ErrorKind;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

use super::Server;
use crate::engine::Engine;
use crate::ops::{OperationInfo, PathParam};
use crate::registry;

impl Server {
    /// The request with each path parameter of `op` resolved inside the roots, or why
    /// one is refused.
    pub(super) fn confine(&self, op: &OperationInfo, mut request: Value) -> Result<Value, String> {
        for param in op.path_params {
            let field = param.pointer.trim_start_matches('/');
            let given = |pointer: &str| match request.pointer(pointer) {
                None | Some(Value::Null) => false,
                Some(Value::String(s)) => !s.trim().is_empty(),
                Some(_) => true,
            };
            let stand_in = param.unless.is_some_and(given);
            match request.pointer_mut(param.pointer) {
                None | Some(Value::Null) if stand_in => {}
                None | Some(Value::Null) => {
                    if param.defaults_to_roots {
                        let roots: Vec<&str> =
                            self.roots.iter().filter_map(|r| r.to_str()).collect();
                        insert_at(&mut request, param.pointer, json!(roots));
                    } else if param.defaults_to_project {
                        self.insert_project(&mut request, param);
                    }
                }
                // An empty list would mean "everywhere" to the operation.
                Some(Value::Array(items)) if param.defaults_to_roots && items.is_empty() => {
                    return Err(format!(
                        "`{field}`: an empty list; leave it out for every root"
                    ));
                }
                Some(Value::String(path)) => *path = self.confine_path(field, path)?,
                Some(Value::Array(items)) => {
                    for item in items {
                        if let Value::String(path) = item {
                            *path = self.confine_path(field, path)?;
                        }
                    }
                }
                // Any other type is refused by the operation itself.
                Some(_) => {}
            }
        }
        Ok(request)
    }

    fn insert_project(&self, request: &mut Value, param: &PathParam) {
        let Some(project) = self.roots.first().and_then(|p| p.to_str()) else {
            return;
        };
        let value = if param.many {
            json!([project])
        } else {
            json!(project)
        };
        insert_at(request, param.pointer, value);
    }

    /// `given` resolved (against the project when relative) and canonicalised, when it
    /// lies inside a root.
    fn confine_path(&self, field: &str, given: &str) -> Result<String, String> {
        if given.is_empty() {
            return Err(format!("`{field}`: empty path"));
        }
        let path = Path::new(given);
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            match self.roots.first() {
                Some(project) => project.join(path),
                None => path.to_path_buf(),
            }
        };
        let resolved = resolve(&absolute).map_err(|e| format!("`{field}`: {given}: {e}"))?;
        if !self.roots.iter().any(|root| resolved.starts_with(root)) {
            let roots: Vec<String> = self.roots.iter().map(|r| r.display().to_string()).collect();
            return Err(format!(
                "`{field}`: {given} resolves to {}, outside the directories this server may read ({})",
                resolved.display(),
                roots.join(", ")
            ));
        }
        resolved
            .into_os_string()
            .into_string()
            .map_err(|p| format!("`{field}`: {} is not valid UTF-8", Path::new(&p).display()))
    }
}

/// Run operation `name` confined to `roots`, a panic caught: its JSON answer, or what
/// went wrong.
pub(super) fn call_guarded(
    engine: &Engine,
    roots: &[PathBuf],
    name: &str,
    params: &str,
) -> std::result::Result<String, String> {
    let call = || crate::env::confined(roots, || registry::call(engine, name, params));
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("internal error: `{name}` panicked")),
    }
}

/// Set the field at JSON pointer `pointer` (whose parent object exists) to `value`.
fn insert_at(request: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = match pointer.rfind('/') {
        Some(i) => (&pointer[..i], &pointer[i + 1..]),
        None => return,
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(map)) = request.pointer_mut(parent) {
        map.insert(key, value);
    }
}

/// The canonical form of `path` (absolute). A path that does not exist yet is its
/// deepest existing ancestor, canonical, joined with the rest — which may hold neither
/// `..` nor a symbolic link, so nothing outside can hide behind a missing component.
fn resolve(path: &Path) -> std::result::Result<PathBuf, String> {
    match std::fs::canonicalize(path) {
        Ok(canonical) => return Ok(canonical),
        Err(e) if e.kind() != ErrorKind::NotFound => return Err(e.to_string()),
        Err(_) => {}
    }
    for ancestor in path.ancestors().skip(1) {
        let Ok(base) = std::fs::canonicalize(ancestor) else {
            continue;
        };
        let rest = path.strip_prefix(ancestor).map_err(|e| e.to_string())?;
        let mut resolved = base;
        let mut exists = true;
        for component in rest.components() {
            match component {
                Component::Normal(name) => resolved.push(name),
                Component::CurDir => continue,
                _ => return Err("`..` after a missing directory".to_string()),
            }
            if exists {
                match std::fs::symlink_metadata(&resolved) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        return Err("a symbolic link that does not resolve".to_string());
                    }
                    Ok(_) => {}
                    Err(_) => exists = false,
                }
            }
        }
        return Ok(resolved);
    }
    Err("no such file or directory".to_string())
}
