//! The bindings' typed layers, generated from the operation table (`cc_search::OPERATIONS`):
//! Python's `cc_search/_types.py` and `_operations.py`, Node's `operations.d.ts` and the methods of
//! `class Engine` in `index.js` (between two marker lines: the package's entry point stays
//! one file, which the hooks load on every keystroke). `tests/it/bindings_generated.rs`
//! compares them with the committed files (and rewrites them with `CC_SEARCH_BLESS=1`,
//! which `make bindings` sets).

mod cli;
mod hints;
mod model;
mod node;
mod python;
mod text;

/// Generated text and where it goes.
pub struct Output {
    /// The file, from the repository root.
    pub path: &'static str,
    /// The lines between which the text goes, or `None` for the whole file.
    pub between: Option<(&'static str, &'static str)>,
    pub text: String,
}

/// Everything generated.
pub fn generate() -> Vec<Output> {
    let api = model::Api::build();
    vec![
        Output {
            path: "bindings/python/python/cc_search/_types.py",
            between: None,
            text: python::render_types(&api),
        },
        Output {
            path: "bindings/python/python/cc_search/_operations.py",
            between: None,
            text: python::render(&api),
        },
        Output {
            path: "bindings/python/python/cc_search/_cli_table.py",
            between: None,
            text: cli::render(&api),
        },
        Output {
            path: "bindings/node/bin/cc-search.js",
            between: Some((cli::NODE_BEGIN, cli::NODE_END)),
            text: cli::render_node(),
        },
        Output {
            path: "bindings/node/index.js",
            between: Some((node::JS_BEGIN, node::JS_END)),
            text: node::render_js(&api),
        },
        Output {
            path: "bindings/node/operations.d.ts",
            between: None,
            text: node::render_dts(&api),
        },
    ]
}
