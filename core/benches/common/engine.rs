//! An engine for a bench: its own data root and, in its configuration, the model to use.

use std::path::Path;

use cc_search::Engine;

/// An engine in `home` with the model in `model` (or none: keyword-only).
pub fn engine(home: &Path, model: Option<&Path>) -> Engine {
    std::fs::create_dir_all(home).expect("create the data directory");
    let dir = model.map_or("/nonexistent/model".to_string(), |d| {
        d.display().to_string()
    });
    std::fs::write(
        home.join("config.toml"),
        format!("[embed]\nmodel_dir = {dir:?}\n"),
    )
    .expect("write config.toml");
    Engine::open_at(home).expect("open the engine")
}
