//! Git: repository discovery, history-derived frecency and working-tree status.
