//! `code.get_dependencies`: what a symbol refers to, in line order, resolved to symbol
//! ids where the index has them ([`outgoing`], shared with `code.get_symbol_detail`).

use serde::{Deserialize, Serialize};

use super::{REPO_PARAM, SymbolRequest, agent_shape, is_false, load_symbol, open_repo, outgoing};
use crate::engine::Engine;
use crate::error::Result;
use crate::ops::{AgentShape, Operation, PathParam};

/// `code.get_dependencies`: what a symbol refers to.
#[derive(Debug, Clone, Copy)]
pub struct GetDependencies;

/// One dependency of a symbol.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dependency {
    /// The name referred to.
    pub to_name: String,
    /// `call`, `import`, `type_ref`, `extends` or `implements`.
    pub kind: String,
    /// The symbol it resolved to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_id: Option<i64>,
    /// Present (`true`) when it resolved to nothing in the index (the standard library,
    /// a dependency, a builtin).
    #[serde(default, skip_serializing_if = "is_false")]
    pub external: bool,
    /// Present (`true`) when several definitions could be meant and none is linked:
    /// `candidates` lists some.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ambiguous: bool,
    /// With `ambiguous`: ids of definitions it could mean (at most five).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<i64>,
}

/// Result of `code.get_dependencies`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DependenciesResponse {
    /// The symbol.
    pub id: i64,
    /// What it refers to, in line order.
    pub dependencies: Vec<Dependency>,
}

impl Operation for GetDependencies {
    const NAME: &'static str = "code.get_dependencies";
    const SUMMARY: &'static str = "What a symbol refers to (calls, type uses, extends, implements), resolved to symbol ids where the index has them.";
    type Request = SymbolRequest;
    type Response = DependenciesResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&[]);
    fn run(engine: &Engine, request: SymbolRequest) -> Result<DependenciesResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let dependencies = outgoing(&conn, &repo.db_path, request.id)?
            .into_iter()
            .map(|o| Dependency {
                external: o.to.is_none() && !o.ambiguous,
                to_name: o.name,
                kind: o.kind,
                to_id: o.to,
                ambiguous: o.ambiguous,
                candidates: o.candidates,
            })
            .collect();
        drop(conn);
        Ok(DependenciesResponse {
            id: request.id,
            dependencies,
        })
    }
}
