//! Handler tests live in `tests/handlers.rs` (integration tests on the public API).
