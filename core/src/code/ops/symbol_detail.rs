//! `code.get_symbol_detail`: one symbol in full — untruncated signature and doc, parent,
//! children, what it calls and the types it uses ([`outgoing`]), who refers to it
//! ([`incoming`]). Its request ([`SymbolRequest`]) and those two queries are shared with
//! `code.get_references` and `code.get_dependencies`, and live in the module.

use serde::{Deserialize, Serialize};

use super::{
    REPO_PARAM, RefSource, RefTarget, SYMBOL_COLUMNS, Symbol, SymbolRequest, SymbolRow,
    agent_shape, dberr, incoming, is_false, load_symbol, open_repo, outgoing, symbol_row,
};
use crate::engine::Engine;
use crate::error::Result;
use crate::ops::{AgentShape, Operation, PathParam};

/// `code.get_symbol_detail`: one symbol in full.
#[derive(Debug, Clone, Copy)]
pub struct GetSymbolDetail;

/// Result of `code.get_symbol_detail`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SymbolDetailResponse {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: String,
    /// File, relative to the repository root.
    pub path: String,
    /// First line (1-based).
    pub start_line: i64,
    /// Last line.
    pub end_line: i64,
    /// Full signature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Full doc comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// A function or method that only declares what others implement (no body, or a
    /// stub of one); left out when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub declaration: bool,
    /// The symbol it is defined in (without signature and doc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<Symbol>,
    /// Symbols defined in it (without signatures and docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Symbol>,
    /// What it calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<RefTarget>,
    /// Who refers to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub called_by: Vec<RefSource>,
    /// The types it names, extends or implements, and the definitions it uses as values
    /// (kind `value`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub type_refs: Vec<RefTarget>,
}

impl Operation for GetSymbolDetail {
    const NAME: &'static str = "code.get_symbol_detail";
    const SUMMARY: &'static str = "One symbol in full: untruncated signature and doc, parent, children, what it calls, who calls it, the types it uses.";
    type Request = SymbolRequest;
    type Response = SymbolDetailResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&["called_by"]);
    fn run(engine: &Engine, request: SymbolRequest) -> Result<SymbolDetailResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        let row = load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let e = dberr(&repo.db_path);
        let parent = match row.parent {
            Some(p) => Some(load_symbol(&conn, &repo.db_path, p, Self::NAME)?),
            None => None,
        };
        let children: Vec<SymbolRow> = conn
            .prepare(&format!(
                "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.parent_symbol_id = ?1 ORDER BY s.line_start, s.id"
            ))
            .map_err(&e)?
            .query_map([row.id], symbol_row)
            .map_err(&e)?
            .collect::<rusqlite::Result<_>>()
            .map_err(&e)?;
        let mut calls = Vec::new();
        let mut type_refs = Vec::new();
        for out in outgoing(&conn, &repo.db_path, row.id)? {
            let call = out.kind == "call";
            let target = out.target();
            if call {
                calls.push(target);
            } else {
                type_refs.push(target);
            }
        }
        let callers = incoming(&conn, &repo.db_path, row.id)?;
        drop(conn);
        let brief = |r: &SymbolRow| Symbol {
            signature: None,
            doc: None,
            ..repo.symbol(r)
        };
        Ok(SymbolDetailResponse {
            id: row.id,
            name: row.name.clone(),
            kind: row.kind.clone(),
            path: row.rel_path.clone(),
            start_line: row.line_start,
            end_line: row.line_end,
            signature: row.signature.clone(),
            doc: row.doc.clone(),
            declaration: row.declaration,
            parent: parent.as_ref().map(brief),
            children: children.iter().map(brief).collect(),
            calls,
            called_by: callers,
            type_refs,
        })
    }
}
