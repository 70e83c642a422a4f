//! Lowering: evaluate a checked model into a [`Problem`](crate::problem::Problem).

pub mod builtins;
pub mod shapes;
pub mod value;
