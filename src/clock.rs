//! The clock of the searches and the run: time limits, elapsed times, progress ticks.
//!
//! `std::time::Instant` panics on `wasm32-unknown-unknown`, where there is no system
//! clock; in a browser the time comes from `performance.now()` (the `web-time` crate,
//! the same type and methods). Everywhere else this is std's `Instant` itself.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;
