//! The operation table: every operation cc-search offers, in one place, and the
//! [`Engine`]'s entry points that run them.
//!
//! This module sits above the components it lists (the engine and [`crate::ops`] know
//! none of them). The C ABI, the Python and Node bindings (through [`Engine::call`]), the
//! MCP server and the generated bindings and docs read this table, so an operation added
//! here reaches every surface.

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{Operation, OperationInfo};
use crate::progress::{self, Progress, Watch};

/// Every operation, in name order (those of the components this build has: each is a
/// Cargo feature).
pub static OPERATIONS: &[OperationInfo] = &[
    #[cfg(feature = "files")]
    OperationInfo::of::<crate::claude::Install>(),
    #[cfg(feature = "files")]
    OperationInfo::of::<crate::claude::InstallMcp>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::DeleteRepos>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::FindCode>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::GetDependencies>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::GetFileSymbols>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::GetOverview>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::GetReferences>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::GetSymbolDetail>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::IndexRepository>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::IndexStatus>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::ListRepos>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::SearchSymbols>(),
    #[cfg(feature = "code")]
    OperationInfo::of::<crate::code::UpdateFiles>(),
    #[cfg(feature = "docs")]
    OperationInfo::of::<crate::docs::Index>(),
    #[cfg(feature = "docs")]
    OperationInfo::of::<crate::docs::Query>(),
    #[cfg(feature = "semantic")]
    OperationInfo::of::<crate::embedding::Text>(),
    #[cfg(feature = "files")]
    OperationInfo::of::<crate::files::Refresh>(),
    #[cfg(feature = "files")]
    OperationInfo::of::<crate::files::Suggest>(),
    #[cfg(feature = "grep")]
    OperationInfo::of::<crate::grep::Search>(),
    #[cfg(feature = "docs")]
    OperationInfo::of::<crate::docs::NotesIndex>(),
    #[cfg(feature = "docs")]
    OperationInfo::of::<crate::docs::NotesQuery>(),
    #[cfg(feature = "sessions")]
    OperationInfo::of::<crate::sessions::Chunk>(),
    #[cfg(feature = "sessions")]
    OperationInfo::of::<crate::sessions::Index>(),
    #[cfg(feature = "sessions")]
    OperationInfo::of::<crate::sessions::Search>(),
    #[cfg(feature = "sessions")]
    OperationInfo::of::<crate::sessions::Status>(),
];

/// Find an operation by name.
pub fn find(name: &str) -> Result<&'static OperationInfo> {
    OPERATIONS
        .iter()
        .find(|op| op.name == name)
        .ok_or_else(|| Error::UnknownOperation {
            name: name.chars().take(200).collect(),
            known: OPERATIONS
                .iter()
                .map(|op| op.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Run the operation `name` with JSON parameters; see [`Engine::call`].
pub fn call(engine: &Engine, name: &str, params_json: &str) -> Result<String> {
    let op = find(name)?;
    engine.watched(|| op.call(engine, params_json))
}

/// A JSON list of the operations: `[{"name", "summary", "request", "response"}]` with
/// JSON Schemas, for surfaces that describe themselves (C, MCP `tools/list`, docs).
pub fn describe() -> serde_json::Value {
    serde_json::Value::Array(
        OPERATIONS
            .iter()
            .map(|op| {
                serde_json::json!({
                    "name": op.name,
                    "summary": op.summary,
                    "request": op.request_schema(),
                    "response": op.response_schema(),
                })
            })
            .collect(),
    )
}

impl Engine {
    /// Run a typed operation.
    pub fn run<O: Operation>(&self, request: O::Request) -> Result<O::Response> {
        self.watched(|| O::run(self, request))
    }

    /// Run the operation named `name` with JSON parameters, returning JSON.
    ///
    /// Empty or `null` parameters mean "all defaults". This is the one entry point of
    /// the C ABI, Python, Node and the MCP server.
    pub fn call(&self, name: &str, params_json: &str) -> Result<String> {
        call(self, name, params_json)
    }

    /// [`Engine::call`], with `progress` receiving the operation's progress on this
    /// thread as it goes (see [`crate::progress`]).
    pub fn call_with_progress(
        &self,
        name: &str,
        params_json: &str,
        progress: impl Fn(&Progress<'_>) + 'static,
    ) -> Result<String> {
        progress::watch(progress, || self.call(name, params_json))
    }

    /// [`Engine::call`] under `watch`: its progress sink, cancel tokens and poll (see
    /// [`crate::progress`]). A cancelled call returns [`Error::Cancelled`].
    pub fn call_watched(&self, name: &str, params_json: &str, watch: Watch) -> Result<String> {
        watch.run(|| self.call(name, params_json))
    }
}
