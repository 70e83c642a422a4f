//! A compiled instance: what one run searches and how its solutions are shown.
//!
//! ```text
//! model + params + record --lower--> Instance { Arc<Compiled>, forced, objective }
//! Knuth / .ec / 0/1 file  --format-> Instance { Arc<Compiled>, [],     costs? }
//! ```
//!
//! [`Compiled`] holds the problem (with the origin of every item and option), the cells
//! each option paints and the symmetry group the model declares: everything the
//! engines, the renderers and the symmetry reduction read, and nothing of the language.
//! It is immutable once built and `Send + Sync`, so one copy is shared (`Arc`) by the
//! records of a data file whose matrix does not depend on the record, by the threads
//! of a search and by Python's iterators, where it used to be copied. What maps it back
//! to the model's values (the keys of each family, the loop values of each item) stays
//! in the lowering, which needs it to lower a record's forces and to explain errors.

pub mod paint;

use std::sync::Arc;

use crate::problem::{OptionId, Problem};
use crate::render::svg::Lattice;
use crate::solve::Objective;
use crate::symmetry::Group;
use paint::Paints;

/// The compiled matrix: the problem and how to show its solutions.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    /// The exact-cover problem.
    pub problem: Problem,
    /// The cells each option paints, by option id, and the canvas under them.
    pub paints: Paints,
    /// Whether painted cells are `(layer, row, column)` triples (`Some(true)`) or
    /// `(row, column)` pairs (`Some(false)`), as the first painted cell was; `None`
    /// before any. A model paints in one dimension only.
    pub paint_layers: Option<bool>,
    /// The symmetry group the model declares (`symmetry`), if it declares one.
    pub symmetry: Option<Group>,
    /// The cell shape the model declares for its pictures (`draw cells hex`), if any.
    pub lattice: Option<Lattice>,
}

impl Compiled {
    /// A problem with nothing to paint and no symmetry (a problem file's).
    pub fn of_problem(problem: Problem) -> Compiled {
        Compiled {
            problem,
            ..Compiled::default()
        }
    }
}

/// One instance to solve: the compiled matrix (shared between records when it does not
/// depend on the record), the options forced for this record, and the objective.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The problem and how to show it.
    pub compiled: Arc<Compiled>,
    /// Options every solution must contain, in declaration order.
    pub forced: Vec<OptionId>,
    /// What to optimize, if anything: the model's `minimize`/`maximize`, or least cost
    /// for a problem file whose options have costs (Knuth's DLX5).
    pub objective: Option<Objective>,
}

impl Instance {
    /// A problem file's instance: nothing forced; optimized for least cost when some
    /// option has a cost, as Knuth's DLX5 does.
    pub fn of_problem(problem: Problem) -> Instance {
        let objective = problem.has_costs().then_some(Objective::MinimizeCost);
        Instance {
            compiled: Arc::new(Compiled::of_problem(problem)),
            forced: Vec::new(),
            objective,
        }
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.compiled.problem
    }
}
