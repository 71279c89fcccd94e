//! JSON Schemas as MCP clients take them: schemars' output with `$defs` inlined, no
//! `$schema` or `title`, and no keyword a Draft 2020-12 validator with format assertion
//! would not know (schemars writes `format: uint64` and friends, which Claude Code's
//! validator warns about once per property).

use serde_json::{Map, Value, json};

/// A schemars schema as a tool schema: no `$schema` or `title`, references to `$defs`
/// inlined (kept as they are when a definition refers to itself).
pub(crate) fn tool_schema(schema: Value) -> Value {
    let mut schema = inlined(schema);
    standard_formats(&mut schema);
    schema
}

fn inlined(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return json!({"type": "object"});
    };
    map.shift_remove("$schema");
    map.shift_remove("title");
    if let Some(Value::Object(defs)) = map.get("$defs").cloned() {
        let mut body = map.clone();
        body.shift_remove("$defs");
        let mut inlined = Value::Object(body);
        if inline_refs(&mut inlined, &defs, &mut Vec::new()).is_ok() {
            return inlined;
        }
    }
    Value::Object(map)
}

/// The tool schema of a response, when it describes an object (MCP's `outputSchema`
/// must).
pub(crate) fn object_schema(schema: Value) -> Option<Value> {
    let schema = tool_schema(schema);
    (schema.get("type") == Some(&json!("object"))).then_some(schema)
}

/// The formats of JSON Schema Draft 2020-12 (section 7.3); a validator asserting formats
/// knows these and no others.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Drop every `format` that is not a standard one, anywhere in `schema`. An unsigned
/// integer format (`uint`, `uint64`, …) becomes `minimum: 0` unless a minimum is there.
pub(crate) fn standard_formats(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match key.as_str() {
                    // Maps from names to schemas: the names are not keywords.
                    "properties" | "$defs" | "definitions" | "patternProperties"
                    | "dependentSchemas" => {
                        if let Value::Object(named) = value {
                            named.values_mut().for_each(standard_formats);
                        }
                    }
                    "items"
                    | "additionalProperties"
                    | "not"
                    | "if"
                    | "then"
                    | "else"
                    | "contains"
                    | "propertyNames"
                    | "unevaluatedItems"
                    | "unevaluatedProperties"
                    | "allOf"
                    | "anyOf"
                    | "oneOf"
                    | "prefixItems" => match value {
                        Value::Array(items) => items.iter_mut().for_each(standard_formats),
                        other => standard_formats(other),
                    },
                    _ => {}
                }
            }
            let unknown = match map.get("format") {
                Some(Value::String(format)) => (!STANDARD_FORMATS.contains(&format.as_str()))
                    .then(|| format.starts_with("uint")),
                Some(_) => Some(false),
                None => None,
            };
            if let Some(unsigned) = unknown {
                map.shift_remove("format");
                if unsigned && !map.contains_key("minimum") {
                    map.insert("minimum".into(), json!(0));
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(standard_formats),
        _ => {}
    }
}

/// Keywords that only annotate: a `$ref`'s sibling may override the definition's.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

fn inline_refs(
    value: &mut Value,
    defs: &Map<String, Value>,
    stack: &mut Vec<String>,
) -> std::result::Result<(), ()> {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let name = reference.strip_prefix("#/$defs/").ok_or(())?.to_string();
                if stack.contains(&name) {
                    return Err(());
                }
                let mut definition = defs.get(&name).cloned().ok_or(())?;
                stack.push(name);
                inline_refs(&mut definition, defs, stack)?;
                stack.pop();
                map.shift_remove("$ref");
                for sibling in map.values_mut() {
                    inline_refs(sibling, defs, stack)?;
                }
                let siblings = std::mem::take(map);
                let Value::Object(mut merged) = definition else {
                    return Err(());
                };
                let conflict = siblings
                    .keys()
                    .any(|k| merged.contains_key(k) && !ANNOTATIONS.contains(&k.as_str()));
                if conflict {
                    *map = siblings;
                    map.insert("allOf".into(), json!([Value::Object(merged)]));
                } else {
                    merged.extend(siblings);
                    *map = merged;
                }
                return Ok(());
            }
            map.values_mut()
                .try_for_each(|v| inline_refs(v, defs, stack))
        }
        Value::Array(items) => items
            .iter_mut()
            .try_for_each(|v| inline_refs(v, defs, stack)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_inlined_with_their_annotations() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "R",
            "type": "object",
            "properties": {
                "scope": {"$ref": "#/$defs/Scope", "description": "which", "default": "user"},
                "list": {"type": "array", "items": {"$ref": "#/$defs/Item"}}
            },
            "$defs": {
                "Scope": {"description": "generic", "type": "string", "enum": ["user", "project"]},
                "Item": {"type": "object", "properties": {"s": {"$ref": "#/$defs/Scope"}}}
            }
        });
        let out = tool_schema(schema);
        assert_eq!(
            out,
            json!({
                "type": "object",
                "properties": {
                    "scope": {"description": "which", "type": "string", "enum": ["user", "project"], "default": "user"},
                    "list": {"type": "array", "items": {"type": "object", "properties": {
                        "s": {"description": "generic", "type": "string", "enum": ["user", "project"]}
                    }}}
                }
            })
        );
    }

    #[test]
    fn only_standard_formats_are_kept() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "format": {"type": "string", "format": "date-time"},
                "n": {"type": ["integer", "null"], "format": "uint64"},
                "m": {"type": "integer", "format": "uint", "minimum": 1},
                "i": {"type": "integer", "format": "int64"},
                "f": {"type": "number", "format": "double"},
                "list": {"type": "array", "items": {"type": "integer", "format": "uint32"}},
                "either": {"anyOf": [{"type": "integer", "format": "int32"}, {"type": "null"}]}
            }
        });
        standard_formats(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "format": {"type": "string", "format": "date-time"},
                    "n": {"type": ["integer", "null"], "minimum": 0},
                    "m": {"type": "integer", "minimum": 1},
                    "i": {"type": "integer"},
                    "f": {"type": "number"},
                    "list": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "either": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
                }
            })
        );
    }

    #[test]
    fn key_order_is_kept() {
        let schema = json!({
            "$schema": "x", "title": "T", "description": "d", "type": "object",
            "properties": {"b": {"type": "string"}, "a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "integer"}}
        });
        assert_eq!(
            tool_schema(schema).to_string(),
            r#"{"description":"d","type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}"#
        );
    }

    #[test]
    fn recursive_definitions_keep_their_references() {
        let schema = json!({
            "type": "object",
            "properties": {"node": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
        });
        let out = tool_schema(schema.clone());
        assert_eq!(out, schema);
    }

    #[test]
    fn conflicting_siblings_become_all_of() {
        let schema = json!({
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/N", "minimum": 1}},
            "$defs": {"N": {"type": "integer", "minimum": 0}}
        });
        assert_eq!(
            tool_schema(schema)["properties"]["n"],
            json!({"minimum": 1, "allOf": [{"type": "integer", "minimum": 0}]})
        );
    }
}
