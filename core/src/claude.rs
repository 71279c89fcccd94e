//! Claude Code: its settings files (additional directories, the installer of cc-search's
//! picker and hooks) and its locations.
