//! The operation table read into what the renderers need: named types (from the request
//! and response JSON Schemas and their `$defs`) and one method per operation.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::hints::{self, ArgKind, Refine};

/// A type, as both languages need it.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// Any JSON value.
    Any,
    /// Any JSON object.
    Object,
    Str,
    Int,
    Float,
    Bool,
    /// Only ever `true`.
    True,
    Null,
    /// One of these strings.
    Lits(Vec<String>),
    List(Box<Ty>),
    /// An object with string keys and values of one type.
    Map(Box<Ty>),
    /// A generated type.
    Named(String),
    Union(Vec<Ty>),
}

/// A field of a request or response object.
#[derive(Clone, Debug)]
pub struct Field {
    /// The JSON key.
    pub key: String,
    /// Its type, `null` aside.
    pub ty: Ty,
    /// It may be `null`.
    pub nullable: bool,
    /// Always in a response; must be given in a request.
    pub required: bool,
    /// Its description (rustdoc markdown), or empty.
    pub doc: String,
    /// Its default, from the schema.
    pub default: Option<Value>,
}

/// Which way a type travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Request,
    Response,
}

/// A generated type.
pub struct Def {
    pub name: String,
    /// Its description (rustdoc markdown), or empty.
    pub doc: String,
    /// Whether it is (part of) a request or a response: optional response fields are left
    /// out rather than `null`.
    pub side: Side,
    pub body: Body,
}

pub enum Body {
    /// An object type.
    Struct(Vec<Field>),
    /// A name for a type (a set of strings, a union); `values` documents each string.
    Alias {
        ty: Ty,
        values: Vec<(String, String)>,
    },
}

/// Whether a parameter is a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    No,
    One,
    Many,
}

/// A request field as a method parameter.
pub struct Param {
    pub field: Field,
    /// Positional, and where; `None`: keyword-only (Python), an option (Node).
    pub arg: Option<ArgKind>,
    pub py_name: String,
    pub js_name: String,
    pub path: PathKind,
}

/// One operation as methods.
pub struct Method {
    pub op: &'static str,
    pub summary: &'static str,
    pub py_name: String,
    pub js_name: String,
    pub request: String,
    pub response: String,
    /// Node's options type.
    pub options: String,
    /// Every request field, in the request's order.
    pub params: Vec<Param>,
    /// Indexes into `params` of the positional ones, in order.
    pub positional: Vec<usize>,
    pub progress: bool,
    /// The method returns only this field of the response.
    pub returns: Option<Field>,
    /// Request fields that default to the project directory.
    pub project_keys: Vec<String>,
}

impl Method {
    /// The parameters that are not positional in Node: its `options`.
    pub fn options(&self) -> impl Iterator<Item = &Param> {
        self.params
            .iter()
            .filter(|p| !matches!(p.arg, Some(ArgKind::Required) | Some(ArgKind::Optional)))
    }

    /// Node's positional parameters, in order.
    pub fn js_positional(&self) -> impl Iterator<Item = &Param> {
        self.positional
            .iter()
            .map(|&i| &self.params[i])
            .filter(|p| p.arg != Some(ArgKind::PythonOptional))
    }

    /// Python's positional parameters, in order.
    pub fn py_positional(&self) -> impl Iterator<Item = &Param> {
        self.positional.iter().map(|&i| &self.params[i])
    }
}

/// Everything the renderers need.
pub struct Api {
    /// Every generated type, each operation's request and response first, then the types
    /// they use, in operation order.
    pub defs: Vec<Def>,
    pub methods: Vec<Method>,
}

impl Api {
    pub fn def(&self, name: &str) -> &Def {
        self.defs
            .iter()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("no generated type `{name}`"))
    }

    fn struct_fields_mut(&mut self, name: &str) -> &mut Vec<Field> {
        match self
            .defs
            .iter_mut()
            .find(|d| d.name == name)
            .map(|d| &mut d.body)
        {
            Some(Body::Struct(fields)) => fields,
            Some(_) => panic!("bindgen hint: `{name}` is not an object type"),
            None => panic!("bindgen hint: no generated type `{name}`"),
        }
    }

    pub fn build() -> Api {
        let mut ops: Vec<&cc_search::OperationInfo> = cc_search::OPERATIONS.iter().collect();
        ops.sort_by_key(|op| op.name);
        for hint in hints::METHODS {
            assert!(
                ops.iter().any(|op| op.name == hint.op),
                "bindgen hint for `{}`, which is not in cc_search::OPERATIONS",
                hint.op
            );
        }

        let mut types = Types::default();
        for (name, doc, values) in hints::STRING_SETS {
            types.defs.push(Some(Def {
                name: name.to_string(),
                doc: doc.to_string(),
                side: Side::Response,
                body: Body::Alias {
                    ty: Ty::Lits(values.iter().map(|v| v.to_string()).collect()),
                    values: Vec::new(),
                },
            }));
        }

        // Pass 1: the types.
        let mut names = Vec::new();
        let mut responses: Vec<(Value, String)> = Vec::new();
        for op in &ops {
            let hint = hints::METHODS.iter().find(|m| m.op == op.name);
            let py_name = match hint.and_then(|h| h.name) {
                Some(name) => name.to_string(),
                None => op.name.replace('.', "_"),
            };
            let stem = match hint.and_then(|h| h.stem) {
                Some(stem) => stem.to_string(),
                None => pascal(&py_name),
            };
            let component = op.name.split('.').next().unwrap();
            let request = format!("{stem}Request");
            types.root(&op.request_schema(), component, Side::Request, &request);
            let schema = op.response_schema();
            let response = match responses.iter().find(|(s, _)| *s == schema) {
                // The same type as an earlier operation's (notes.index and docs.index).
                Some((_, name)) => name.clone(),
                None => {
                    let name = format!("{stem}Response");
                    types.root(&schema, component, Side::Response, &name);
                    responses.push((schema, name.clone()));
                    name
                }
            };
            names.push((py_name, stem, request, response));
        }
        for (key, _) in hints::DEF_NAMES {
            assert!(
                types.used_def_names.contains(*key),
                "bindgen hint DEF_NAMES: no `$defs` entry `{key}` in any schema"
            );
        }
        let mut api = Api {
            defs: types
                .defs
                .into_iter()
                .map(|d| d.expect("every type is built"))
                .collect(),
            methods: Vec::new(),
        };
        api.refine();

        // Pass 2: the methods.
        for (op, (py_name, stem, request, response)) in ops.iter().zip(names) {
            let hint = hints::METHODS.iter().find(|m| m.op == op.name);
            let Body::Struct(fields) = &api.def(&request).body else {
                unreachable!()
            };
            let path_of = |key: &str| {
                op.path_params
                    .iter()
                    .find(|p| p.pointer.strip_prefix('/') == Some(key))
                    .map(|p| {
                        if p.many {
                            PathKind::Many
                        } else {
                            PathKind::One
                        }
                    })
                    .unwrap_or(PathKind::No)
            };
            let mut params: Vec<Param> = fields
                .iter()
                .map(|f| Param {
                    field: f.clone(),
                    arg: None,
                    py_name: python_name(&f.key),
                    js_name: camel(&f.key),
                    path: path_of(&f.key),
                })
                .collect();
            for p in op.path_params {
                let key = p.pointer.strip_prefix('/').unwrap_or(p.pointer);
                assert!(
                    params.iter().any(|q| q.field.key == key),
                    "`{}` declares the path parameter `{}`, which its request does not have",
                    op.name,
                    p.pointer
                );
            }
            let args: Vec<(String, ArgKind, Option<&str>, bool)> = match hint {
                Some(h) => h
                    .args
                    .iter()
                    .map(|a| (a.field.to_string(), a.kind, a.py_name, a.path))
                    .collect(),
                None => params
                    .iter()
                    .filter(|p| p.field.required)
                    .map(|p| (p.field.key.clone(), ArgKind::Required, None, false))
                    .collect(),
            };
            let mut positional = Vec::new();
            for (key, kind, py, path) in args {
                let index = params
                    .iter()
                    .position(|p| p.field.key == key)
                    .unwrap_or_else(|| {
                        panic!("bindgen hint: `{}` has no request field `{key}`", op.name)
                    });
                let param = &mut params[index];
                param.arg = Some(kind);
                if let Some(py) = py {
                    param.py_name = py.to_string();
                }
                if path && param.path == PathKind::No {
                    param.path = PathKind::One;
                }
                positional.push(index);
            }
            let mut seen = BTreeSet::new();
            for p in &params {
                assert!(
                    seen.insert(p.py_name.as_str()) && p.py_name != "progress",
                    "`{}`: two Python parameters named `{}`",
                    op.name,
                    p.py_name
                );
            }
            let returns = hint.and_then(|h| h.returns).map(|key| {
                let Body::Struct(fields) = &api.def(&response).body else {
                    unreachable!()
                };
                fields
                    .iter()
                    .find(|f| f.key == key)
                    .cloned()
                    .unwrap_or_else(|| {
                        panic!(
                            "bindgen hint: `{}` returns `{key}`, which `{response}` lacks",
                            op.name
                        )
                    })
            });
            let project_keys = op
                .path_params
                .iter()
                .filter(|p| p.defaults_to_project)
                .map(|p| p.pointer.trim_start_matches('/').to_string())
                .collect();
            api.methods.push(Method {
                op: op.name,
                summary: op.summary,
                js_name: camel(&py_name),
                py_name,
                request,
                response,
                options: format!("{stem}Options"),
                params,
                positional,
                progress: hint.is_some_and(|h| h.progress),
                returns,
                project_keys,
            });
        }
        api
    }

    /// Apply [`hints::FIELDS`], then drop `null` from the optional fields of responses
    /// (left out rather than `null`).
    fn refine(&mut self) {
        for (type_name, key, refine) in hints::FIELDS {
            if *type_name == "*" {
                let mut hits = 0;
                for def in &mut self.defs {
                    let Body::Struct(fields) = &mut def.body else {
                        continue;
                    };
                    if def.side != Side::Response {
                        continue;
                    }
                    for field in fields.iter_mut().filter(|f| f.key == *key) {
                        if !field.required && field.ty == Ty::Bool {
                            apply(field, refine, &def.name);
                            hits += 1;
                        }
                    }
                }
                assert!(
                    hits > 0,
                    "bindgen hint: no optional boolean `{key}` in any response"
                );
                continue;
            }
            if let Refine::Is(name) = refine {
                self.def(name);
            }
            let fields = self.struct_fields_mut(type_name);
            let field = fields
                .iter_mut()
                .find(|f| f.key == *key)
                .unwrap_or_else(|| panic!("bindgen hint: `{type_name}` has no field `{key}`"));
            apply(field, refine, type_name);
        }
        for def in &mut self.defs {
            if let (Side::Response, Body::Struct(fields)) = (def.side, &mut def.body) {
                for field in fields.iter_mut().filter(|f| !f.required) {
                    field.nullable = false;
                }
            }
        }
    }
}

fn apply(field: &mut Field, refine: &Refine, type_name: &str) {
    let key = &field.key;
    match refine {
        Refine::Present => {
            assert!(
                field.nullable && !field.required,
                "bindgen hint: `{type_name}.{key}` is not an optional nullable field"
            );
            field.required = true;
        }
        Refine::OnlyTrue => {
            assert!(
                field.ty == Ty::Bool,
                "bindgen hint: `{type_name}.{key}` is not a boolean"
            );
            field.ty = Ty::True;
        }
        Refine::OneOf(values) => {
            let lits = Ty::Lits(values.iter().map(|v| v.to_string()).collect());
            replace_string(&mut field.ty, lits, type_name, key);
        }
        Refine::Is(name) => {
            let named = Ty::Named(name.to_string());
            match &mut field.ty {
                Ty::List(items) if matches!(**items, Ty::Object) => **items = named,
                ty => replace_string(ty, named, type_name, key),
            }
        }
    }
}

fn replace_string(ty: &mut Ty, with: Ty, type_name: &str, key: &str) {
    match ty {
        Ty::Str => *ty = with,
        Ty::List(items) if **items == Ty::Str => **items = with,
        _ => panic!("bindgen hint: `{type_name}.{key}` is not a string or a list of strings"),
    }
}

/// The types built so far, in order (a slot is reserved for a type while its fields are
/// read, so a type comes before the types it uses).
#[derive(Default)]
struct Types {
    defs: Vec<Option<Def>>,
    /// Each def's public name and the schema it was built from.
    sources: BTreeMap<String, Value>,
    used_def_names: BTreeSet<String>,
}

impl Types {
    fn root(&mut self, schema: &Value, component: &str, side: Side, name: &str) {
        assert!(
            !self.sources.contains_key(name),
            "two generated types named `{name}`: add a `stem` to bindgen's hints"
        );
        self.sources.insert(name.to_string(), schema.clone());
        self.object(schema, schema, component, side, name);
    }

    /// Build the object type `name` from `schema` (whose `$defs` are `root`'s).
    fn object(&mut self, schema: &Value, root: &Value, component: &str, side: Side, name: &str) {
        let slot = self.defs.len();
        self.defs.push(None);
        let required: BTreeSet<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        if let Some(properties) = schema["properties"].as_object() {
            for (key, property) in properties {
                let hint = format!("{name}{}", pascal(key));
                let (ty, nullable) = self.ty(property, root, component, side, &hint);
                fields.push(Field {
                    key: key.clone(),
                    ty,
                    nullable,
                    required: required.contains(key.as_str()),
                    doc: description(property),
                    default: property.get("default").cloned(),
                });
            }
        }
        self.defs[slot] = Some(Def {
            name: name.to_string(),
            doc: description(schema),
            side,
            body: Body::Struct(fields),
        });
    }

    /// The type of `schema`, and whether it may be `null`.
    fn ty(
        &mut self,
        schema: &Value,
        root: &Value,
        component: &str,
        side: Side,
        hint: &str,
    ) -> (Ty, bool) {
        let Some(object) = schema.as_object() else {
            return (Ty::Any, false);
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return (
                Ty::Named(self.reference(reference, root, component, side)),
                false,
            );
        }
        if let Some(variants) = object
            .get("anyOf")
            .or(object.get("oneOf"))
            .and_then(Value::as_array)
        {
            let mut nullable = false;
            let mut tys = Vec::new();
            for variant in variants {
                if variant.get("type").and_then(Value::as_str) == Some("null") {
                    nullable = true;
                    continue;
                }
                let (ty, null) = self.ty(variant, root, component, side, hint);
                nullable |= null;
                tys.push(ty);
            }
            return (union(tys), nullable);
        }
        if let Some(value) = object.get("const") {
            return match value.as_str() {
                Some(s) => (Ty::Lits(vec![s.to_string()]), false),
                None => (Ty::Any, value.is_null()),
            };
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            let nullable = values.iter().any(Value::is_null);
            let lits = values
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            return (Ty::Lits(lits), nullable);
        }
        let types: Vec<&str> = match object.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => return (Ty::Any, false),
        };
        let nullable = types.contains(&"null");
        let mut tys = Vec::new();
        for t in types.into_iter().filter(|t| *t != "null") {
            tys.push(match t {
                "string" => Ty::Str,
                "integer" => Ty::Int,
                "number" => Ty::Float,
                "boolean" => Ty::Bool,
                "array" => match object.get("items") {
                    Some(items) => {
                        let (ty, null) = self.ty(items, root, component, side, hint);
                        Ty::List(Box::new(if null { union(vec![ty, Ty::Null]) } else { ty }))
                    }
                    None => Ty::List(Box::new(Ty::Any)),
                },
                "object" if object.contains_key("properties") => {
                    self.object(schema, root, component, side, hint);
                    Ty::Named(hint.to_string())
                }
                "object" => match object.get("additionalProperties") {
                    Some(values @ Value::Object(_)) => {
                        let (ty, null) = self.ty(values, root, component, side, hint);
                        Ty::Map(Box::new(if null { union(vec![ty, Ty::Null]) } else { ty }))
                    }
                    _ => Ty::Object,
                },
                _ => Ty::Any,
            });
        }
        (union(tys), nullable)
    }

    /// The public name of the def `reference` points to, built on first use.
    fn reference(&mut self, reference: &str, root: &Value, component: &str, side: Side) -> String {
        let rust = reference
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("unsupported `$ref` {reference}"));
        let qualified = format!("{component}.{rust}");
        let name = match hints::DEF_NAMES
            .iter()
            .find(|(k, _)| *k == qualified || *k == rust)
        {
            Some((key, name)) => {
                self.used_def_names.insert(key.to_string());
                name.to_string()
            }
            None => format!("{}{rust}", pascal(component)),
        };
        let schema = &root["$defs"][rust];
        assert!(!schema.is_null(), "`$ref` {reference} has no definition");
        if let Some(seen) = self.sources.get(&name) {
            assert!(
                seen == schema,
                "two different types would both be named `{name}`: give one another name in \
                 bindgen's hints (DEF_NAMES)"
            );
            return name;
        }
        self.sources.insert(name.clone(), schema.clone());
        if schema.get("properties").is_some() {
            self.object(schema, root, component, side, &name);
        } else {
            let slot = self.defs.len();
            self.defs.push(None);
            let (ty, _) = self.ty(schema, root, component, side, &name);
            let values = schema
                .get("oneOf")
                .and_then(Value::as_array)
                .map(|variants| {
                    variants
                        .iter()
                        .filter_map(|v| Some((v["const"].as_str()?.to_string(), description(v))))
                        .collect()
                })
                .unwrap_or_default();
            self.defs[slot] = Some(Def {
                name: name.clone(),
                doc: description(schema),
                side,
                body: Body::Alias { ty, values },
            });
        }
        name
    }
}

/// One type from several: string sets merged, a single type as itself.
fn union(tys: Vec<Ty>) -> Ty {
    if !tys.is_empty() && tys.iter().all(|t| matches!(t, Ty::Lits(_))) {
        let mut all = Vec::new();
        for t in tys {
            if let Ty::Lits(values) = t {
                all.extend(values);
            }
        }
        return Ty::Lits(all);
    }
    match tys.len() {
        0 => Ty::Any,
        1 => tys.into_iter().next().unwrap(),
        _ => Ty::Union(tys),
    }
}

fn description(schema: &Value) -> String {
    schema["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// `files_suggest` → `FilesSuggest`.
pub fn pascal(name: &str) -> String {
    name.split(['_', '.', '-'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            let first = chars.next().unwrap().to_ascii_uppercase();
            std::iter::once(first).chain(chars).collect::<String>()
        })
        .collect()
}

/// `files_suggest` → `filesSuggest`; a leading `_` stays (`_f`).
pub fn camel(name: &str) -> String {
    let lead: String = name.chars().take_while(|c| *c == '_').collect();
    let rest = &name[lead.len()..];
    let pascal = pascal(rest);
    let mut chars = pascal.chars();
    match chars.next() {
        Some(first) => format!("{lead}{}{}", first.to_ascii_lowercase(), chars.as_str()),
        None => name.to_string(),
    }
}

const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A field's name as a Python parameter (`_` after a keyword).
fn python_name(key: &str) -> String {
    if PYTHON_KEYWORDS.contains(&key) {
        format!("{key}_")
    } else {
        key.to_string()
    }
}

/// Whether `key` can be a Python identifier in a class body.
pub fn is_python_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !PYTHON_KEYWORDS.contains(&key)
}
