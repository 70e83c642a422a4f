//! The Dancing Links engine: Knuth's Algorithm X over the flat arrays of DLX1.
//!
//! A [`Solver`] is built once from a [`Problem`] and then runs any number of searches,
//! each with its own forced options (the clues of a sudoku, say) and limits. Solutions go
//! to a visitor that can stop the search; every search leaves the structure exactly as it
//! found it, however it ends.
//!
//! ```
//! use dlxc::problem::ProblemBuilder;
//! use dlxc::solve::{End, Flow, SearchConfig, Solver};
//!
//! let mut b = ProblemBuilder::new();
//! b.primary(["a", "b"]);
//! b.option(["a"]);
//! b.option(["b"]);
//! b.option(["a", "b"]);
//! let mut solver = Solver::new(&b.build()).unwrap();
//! let mut found = Vec::new();
//! let outcome = solver
//!     .search(&[], &SearchConfig::default(), &mut |s| {
//!         found.push(s.to_vec());
//!         Flow::Continue
//!     })
//!     .unwrap();
//! assert_eq!(outcome.stats.solutions, 2);
//! assert_eq!(outcome.end, End::Exhausted);
//! ```
//!
//! As in Knuth's programs, the search only chooses options from the lists of primary
//! items: an option with no primary item is part of a solution only when forced (Knuth's
//! DLX1-DLX3 drop such options with a warning; here they stay, so they can be forced).
//!
//! Five engines sit behind [`Solver`]. Every kind of problem (exact cover, colors,
//! multiplicity intervals) runs on one search loop ([`engine`]) over the common moves
//! of its structures ([`structure`]): for a problem of at most a few thousand options
//! on bitsets ([`bits`]), else on sparse sets, Knuth's dancing cells as in his SSXCC
//! ([`cells`]) or, with multiplicities, as in his SSMCC ([`multi`]). [`Solver::new`]
//! picks one. Dancing links are kept as the reference, chosen with
//! [`EngineChoice::Links`]: Algorithm X over DLX1's links ([`search`]) for plain exact
//! cover, whose node and update counts are DLX1's, and Algorithm M with colors as in
//! DLX3 ([`mcc`]) for the rest; the random cross-checks compare every engine with them.
//! Costs are carried by the problem but ignored here.

mod bits;
mod cells;
mod engine;
pub mod estimate;
mod links;
mod mcc;
pub mod memo;
mod multi;
pub mod optimize;
pub mod parallel;
pub mod reduce;
mod search;
pub mod share;
mod structure;
mod tally;

use crate::clock::Instant;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::problem::{ItemId, OptionId, Problem, ProblemError};
use bits::Bits;
use cells::Cells;
use links::Links;
use mcc::Mcc;
use multi::Multi;
pub use optimize::{Objective, Optimizer, Optimum, Refused};
use structure::Structure;
use tally::Tally;

/// What the visitor tells the search after seeing a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep looking.
    Continue,
    /// Stop now; the search ends with [`End::Stopped`].
    Stop,
}

/// How much to search and when to give up. The default finds every solution and calls
/// the visitor for each.
#[derive(Clone, Debug, Default)]
pub struct SearchConfig {
    /// Only count: the visitor is never called (and solutions are not assembled).
    pub count_only: bool,
    /// Stop after this many solutions ([`End::Stopped`]).
    pub max_solutions: Option<u128>,
    /// Give up after this many search nodes ([`End::Cut`] with [`Limit::Nodes`]).
    pub node_limit: Option<u64>,
    /// Give up after this much time, checked every 1024 nodes.
    pub time_limit: Option<Duration>,
    /// Give up when this flag becomes true (Ctrl-C), checked every 1024 nodes.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// The other threads of a parallel count, to which the search gives work away
    /// ([`share`]); dancing cells only.
    pub share: Option<Arc<dyn share::Share>>,
}

impl SearchConfig {
    /// The settings of the next part of a search of several parts (a count by parts,
    /// a listing by parts) that began at `start` and has taken `nodes` nodes: what is
    /// left of the time and node limits, which are for all the parts together; `None`
    /// when no time is left.
    pub fn left_after(&self, start: Instant, nodes: u64) -> Option<SearchConfig> {
        let mut cfg = self.clone();
        if let Some(t) = self.time_limit {
            cfg.time_limit = Some(t.checked_sub(start.elapsed()).filter(|l| !l.is_zero())?);
        }
        if let Some(n) = self.node_limit {
            cfg.node_limit = Some(n.saturating_sub(nodes).max(1));
        }
        Some(cfg)
    }

    /// This configuration for a piece of a search that began at `start`: the time
    /// limit is the whole search's, so the piece gets what is left of it.
    pub(crate) fn for_piece(&self, start: Instant) -> SearchConfig {
        SearchConfig {
            time_limit: self.time_limit.map(|t| t.saturating_sub(start.elapsed())),
            ..self.clone()
        }
    }
}

/// The counters of one search, as DLX1 reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes: levels entered, solutions included (DLX1's `nodes`, counted
    /// before the test for a solution). A search whose forced options already cover
    /// every primary item has one node, its solution.
    pub nodes: u64,
    /// Link updates: one per item unlinked by a cover and one per node hidden (DLX1's
    /// `updates`). Covering the forced options is not counted.
    pub updates: u64,
    /// Solutions found (all of them, even when the visitor is not called).
    pub solutions: u128,
    /// Wall-clock time of the search, forced options included.
    pub elapsed: Duration,
}

/// Which limit cut a search short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`SearchConfig::node_limit`] was reached.
    Nodes,
    /// [`SearchConfig::time_limit`] ran out.
    Time,
    /// The [`SearchConfig::interrupt`] flag was raised.
    Interrupted,
}

impl Limit {
    /// Why the search was cut short, as the notice of a cut says it.
    pub fn reason(self) -> &'static str {
        match self {
            Limit::Nodes => "node limit reached",
            Limit::Time => "time limit reached",
            Limit::Interrupted => "interrupted",
        }
    }
}

/// How a search ended. Only [`End::Exhausted`] means the solution count is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The whole tree was searched: the count is exact.
    Exhausted,
    /// The visitor said [`Flow::Stop`], or `max_solutions` was reached.
    Stopped,
    /// A limit cut the search short: more solutions may exist.
    Cut(Limit),
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The counters.
    pub stats: Stats,
    /// Why the search ended.
    pub end: End,
}

/// Two forced options that cannot both be in a solution because of `item`. `first` is
/// the earlier of the two in the forced list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe(&format!("#{}", first.0 + 1), &format!("#{}", second.0 + 1), &format!("#{}", item.0 + 1)))]
pub struct Clash {
    /// The forced option that covered the item first.
    pub first: OptionId,
    /// The forced option that covers it again.
    pub second: OptionId,
    /// The item they disagree on.
    pub item: ItemId,
    /// How they disagree.
    pub kind: ClashKind,
}

/// Why two forced options clash on an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClashKind {
    /// Both cover it, and it may be covered once (or one of them claims a secondary
    /// item outright). Also: the same option forced twice.
    Shared,
    /// Both give the secondary item a color, and the colors differ.
    Color,
    /// The second option would cover the primary item more often than its upper bound
    /// allows (`first` is the first forced option that covered it; it is the second
    /// itself when the upper bound is 0).
    Multiplicity,
}

impl Clash {
    /// The clash in words, given how to show the two options and the item.
    pub fn describe(&self, first: &str, second: &str, item: &str) -> String {
        match self.kind {
            ClashKind::Shared if self.first == self.second => {
                format!("option {first} is forced twice")
            }
            ClashKind::Shared => format!("forced options {first} and {second} both cover {item}"),
            ClashKind::Color => {
                format!("forced options {first} and {second} give {item} different colors")
            }
            ClashKind::Multiplicity if self.first == self.second => {
                format!("forced option {first} covers {item}, which no option may cover")
            }
            ClashKind::Multiplicity => format!(
                "forced options from {first} to {second} cover {item} more often than its bounds allow"
            ),
        }
    }
}

/// A problem the engines cannot solve.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// Some option gives a secondary item a color in a problem with at-least-once
    /// items, which one engine of the optimizer (the links of DLX1) does not handle;
    /// [`Optimizer`](optimize::Optimizer) gives such problems to another, so a user
    /// does not meet this.
    #[error(
        "item `{item}` is given a color; optimizing with colors and at-least-once items is not supported yet"
    )]
    Colors {
        /// The first colored item.
        item: String,
    },
    /// A primary item has bounds that one engine of the optimizer does not handle
    /// (DLX5's takes exactly once, DLX1's links `1..` too);
    /// [`Optimizer`](optimize::Optimizer) gives such problems to another, so a user
    /// does not meet this.
    #[error(
        "item `{item}` must be covered {bounds} times; optimizing with such bounds is not supported yet"
    )]
    Multiplicity {
        /// The first such item.
        item: String,
        /// Its bounds.
        bounds: crate::problem::Bounds,
    },
    /// The problem breaks an invariant of [`Problem`] (a bug in whatever built it).
    #[error("invalid problem: {0}")]
    Invalid(#[from] ProblemError),
    /// The engine asked for cannot solve this kind of problem.
    #[error("the {engine} engine cannot solve this problem: {why}")]
    Engine {
        /// The engine asked for.
        engine: &'static str,
        /// What it lacks.
        why: &'static str,
    },
    /// The problem has 2^31 or more nodes.
    #[error("the problem is too large: the engine indexes at most 2^31 matrix entries")]
    TooLarge,
}

impl Unsupported {
    /// What the user can do instead, for the help line of a diagnostic.
    pub fn help(&self) -> &'static str {
        match self {
            Unsupported::Colors { .. } | Unsupported::Multiplicity { .. } => {
                "the optimizer gives such problems to an engine that takes them, so this is a bug: please report it with the input"
            }
            Unsupported::Invalid(_) => {
                "this is a bug in whatever built the problem: please report it with the input"
            }
            Unsupported::Engine { .. } => {
                "leave the engine to dlxc (`--engine auto`): it picks one that solves every problem"
            }
            Unsupported::TooLarge => {
                "split the problem into smaller ones, or narrow its families with `where`"
            }
        }
    }
}

/// An exact-cover solver, built once from a problem and reused for many searches.
#[derive(Clone, Debug)]
pub struct Solver {
    engine: Engine,
    /// The solution handed to the visitor: forced options, then chosen ones.
    solution: Vec<OptionId>,
}

/// Which engine a [`Solver`] runs (`--engine`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineChoice {
    /// Bitsets for problems of at most a few thousand options, dancing cells above
    /// (with multiplicities, as in SSMCC).
    #[default]
    Auto,
    /// Dancing cells (SSXCC; with multiplicities, SSMCC).
    Cells,
    /// Bitsets; refuses problems with too many options.
    Bits,
    /// Dancing links: DLX1's Algorithm X for plain exact cover, Algorithm M with colors
    /// (DLX3) for the rest. The reference whose node counts are Knuth's.
    Links,
    /// Dancing cells (with multiplicities too) with the save points of large problems
    /// (a trail of changes) whatever the size: for tests of that path on small problems.
    #[doc(hidden)]
    CellsTrail,
    /// Bitsets that keep a count per item, also where the tallied counts of the
    /// smallest problems with multiplicities would be used: for tests of that path.
    #[doc(hidden)]
    BitsKept,
}

/// The engine chosen for a problem.
#[derive(Clone, Debug)]
enum Engine {
    /// Dancing cells (SSXCC): exact cover, with colors.
    C(Box<engine::Engine<Cells>>),
    /// Bitsets: small exact cover, with colors.
    B(Box<engine::Engine<Bits>>),
    /// Algorithm X (DLX1): plain exact cover.
    X(Box<Exact>),
    /// Algorithm M with colors (DLX3).
    M(Box<Mcc>),
    /// Dancing cells with multiplicities and colors (SSMCC).
    S(Box<engine::Engine<Multi>>),
    /// Bitsets of one, two or four words with multiplicities, counts tallied.
    T1(Box<engine::Engine<Tally<1>>>),
    T2(Box<engine::Engine<Tally<2>>>),
    T4(Box<engine::Engine<Tally<4>>>),
}

/// `$body` with `$e` the engine on the shared loop ([`engine::Engine`]) that `$engine`
/// holds, whatever its structure; else `$other` with `$o` the engine on dancing links.
macro_rules! on_shared_loop {
    ($engine:expr, $e:ident => $body:expr, $o:tt => $other:expr) => {
        match $engine {
            Engine::C($e) => $body,
            Engine::B($e) => $body,
            Engine::S($e) => $body,
            Engine::T1($e) => $body,
            Engine::T2($e) => $body,
            Engine::T4($e) => $body,
            $o @ (Engine::X(_) | Engine::M(_)) => $other,
        }
    };
}

/// Algorithm X's state.
#[derive(Clone, Debug)]
struct Exact {
    links: Links,
    /// The stack: `choice[l]` is the node tried at level `l` (DLX1's `choice`).
    choice: Vec<u32>,
    /// Which forced option covers each internal item during setup (`u32::MAX`: none).
    forced_by: Vec<u32>,
    /// A copy of the pristine links, for problems small enough that copying them back is
    /// cheaper than undoing a search's covers one by one (see [`Exact::restore`]).
    pristine: Option<Box<Links>>,
}

/// Largest structure (in nodes) of which a pristine copy is kept: 12 bytes a node, so
/// at most 3 MB more memory. Above that the problem is large, its searches are long, and
/// the final unwinding is a small part of them.
const PRISTINE_MAX_NODES: usize = 1 << 18;

impl Solver {
    /// Builds the default engine for `problem`: bitsets for at most a few thousand
    /// options, dancing cells above (see [`EngineChoice::Auto`]).
    ///
    /// Refuses problems that fail [`Problem::validate`] (checked here because a
    /// repeated or dangling item would corrupt the structures) and problems too large
    /// for 32-bit indices.
    pub fn new(problem: &Problem) -> Result<Solver, Unsupported> {
        Solver::with_engine(problem, EngineChoice::Auto)
    }

    /// Builds the engine `choice` names for `problem` (see [`EngineChoice`]).
    pub fn with_engine(problem: &Problem, choice: EngineChoice) -> Result<Solver, Unsupported> {
        match choice {
            EngineChoice::Links => Solver::links(problem),
            EngineChoice::Cells | EngineChoice::CellsTrail if problem.has_multiplicities() => {
                problem.validate()?;
                let trail = choice == EngineChoice::CellsTrail;
                let multi = Multi::new(problem, trail).map_err(|_| Unsupported::TooLarge)?;
                Ok(Solver {
                    engine: Engine::S(Box::new(engine::Engine::new(multi))),
                    solution: Vec::new(),
                })
            }
            EngineChoice::Bits | EngineChoice::Auto if Tally::<4>::fits(problem) => {
                // The smallest problems with multiplicities: see `tally`.
                problem.validate()?;
                let engine = match problem.options.len().div_ceil(64) {
                    0 | 1 => Engine::T1(Box::new(engine::Engine::new(Tally::new(problem)))),
                    2 => Engine::T2(Box::new(engine::Engine::new(Tally::new(problem)))),
                    _ => Engine::T4(Box::new(engine::Engine::new(Tally::new(problem)))),
                };
                Ok(Solver {
                    engine,
                    solution: Vec::new(),
                })
            }
            EngineChoice::Bits | EngineChoice::BitsKept if !Bits::fits(problem) => {
                problem.validate()?;
                Err(Unsupported::Engine {
                    engine: "bits",
                    why: "the problem has more options than the bitset engine takes (4096)",
                })
            }
            EngineChoice::Bits | EngineChoice::BitsKept | EngineChoice::Auto
                if Bits::fits(problem) =>
            {
                // Multiplicities too: their levels tweak (see `bits`).
                problem.validate()?;
                Ok(Solver {
                    engine: Engine::B(Box::new(engine::Engine::new(Bits::new(problem)))),
                    solution: Vec::new(),
                })
            }
            _ if problem.has_multiplicities() => {
                problem.validate()?;
                let multi = Multi::new(problem, false).map_err(|_| Unsupported::TooLarge)?;
                Ok(Solver {
                    engine: Engine::S(Box::new(engine::Engine::new(multi))),
                    solution: Vec::new(),
                })
            }
            _ => {
                problem.validate()?;
                let trail = choice == EngineChoice::CellsTrail;
                let cells = Cells::new(problem, trail).map_err(|_| Unsupported::TooLarge)?;
                Ok(Solver {
                    engine: Engine::C(Box::new(engine::Engine::new(cells))),
                    solution: Vec::new(),
                })
            }
        }
    }

    /// The dancing-links engines: DLX1's Algorithm X for plain exact cover, Algorithm M
    /// with colors for the rest.
    fn links(problem: &Problem) -> Result<Solver, Unsupported> {
        if problem.has_colors() || problem.has_multiplicities() {
            Solver::general(problem)
        } else {
            problem.validate()?;
            let links = Links::new(problem).map_err(|_| Unsupported::TooLarge)?;
            let n = links.n_items as usize;
            Ok(Solver {
                engine: Engine::X(Box::new(Exact {
                    choice: Vec::with_capacity(links.n_primary as usize + 1),
                    forced_by: vec![u32::MAX; n + 1],
                    pristine: (links.nodes.len() <= PRISTINE_MAX_NODES)
                        .then(|| Box::new(links.clone())),
                    links,
                })),
                solution: Vec::new(),
            })
        }
    }

    /// Builds the general engine (Algorithm M with colors) whatever the problem; on plain
    /// exact cover it makes the same search tree as [`Solver::new`]'s Algorithm X. For
    /// tests and comparisons.
    pub fn general(problem: &Problem) -> Result<Solver, Unsupported> {
        problem.validate()?;
        let links = Links::new(problem).map_err(|_| Unsupported::TooLarge)?;
        Ok(Solver {
            engine: Engine::M(Box::new(Mcc::new(problem, links))),
            solution: Vec::new(),
        })
    }

    /// Whether this solver runs the general engine (Algorithm M with colors).
    pub fn is_general(&self) -> bool {
        matches!(self.engine, Engine::M(_))
    }

    /// The engine that runs, in words, for `--stats`.
    pub fn engine_name(&self) -> &'static str {
        match &self.engine {
            Engine::C(_) => "dancing cells (SSXCC)",
            Engine::B(_) => "bitsets",
            Engine::X(_) => "dancing links (DLX1)",
            Engine::M(_) => "dancing links, Algorithm M (DLX3)",
            Engine::S(_) => "dancing cells, multiplicities (SSMCC)",
            Engine::T1(_) | Engine::T2(_) | Engine::T4(_) => "bitsets, counts tallied",
        }
    }

    /// Number of options of the problem.
    pub fn option_count(&self) -> usize {
        on_shared_loop!(&self.engine, e => e.s.option_count(), links => match links {
            Engine::X(x) => x.links.option_start.len() - 1,
            Engine::M(m) => m.links().option_start.len() - 1,
            _ => unreachable!(),
        })
    }

    /// Searches for every solution that contains the `forced` options, calling
    /// `on_solution` with each (forced options first, in the given order, then the
    /// options chosen by the search from the top level down).
    ///
    /// Returns [`Clash`] if two forced options cannot be together in a solution: they
    /// share an item that only one option may cover, give a secondary item different
    /// colors, or cover a primary item more often than its upper bound; nothing is
    /// searched then. Whatever happens, the structure is restored before returning.
    ///
    /// # Panics
    ///
    /// If a forced option id is out of range for this problem: ids come from the same
    /// `Problem`, so that is a bug in the caller, not bad input.
    pub fn search(
        &mut self,
        forced: &[OptionId],
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Result<Outcome, Clash> {
        self.search_part(forced, &[], config, on_solution)
    }

    /// [`Solver::search`] for the solutions that contain `forced` and none of
    /// `excluded`: a part of the tree that a search or a split gave (see [`share::Part`]);
    /// only the parts of problems with multiplicities exclude options.
    ///
    /// # Panics
    ///
    /// If an option id is out of range, or `excluded` is not empty on another engine.
    pub fn search_part(
        &mut self,
        forced: &[OptionId],
        excluded: &[OptionId],
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Result<Outcome, Clash> {
        let start = Instant::now();
        let options = self.option_count();
        assert!(
            excluded.is_empty()
                || matches!(
                    self.engine,
                    Engine::S(_) | Engine::B(_) | Engine::T1(_) | Engine::T2(_) | Engine::T4(_)
                ),
            "only the engines that tweak exclude options"
        );
        if let Some(bad) = forced.iter().chain(excluded).find(|o| o.index() >= options) {
            panic!(
                "forced option #{} does not exist: the problem has {options} options",
                bad.0 + 1
            );
        }
        // In debug builds, check the promise that every search restores the structure.
        #[cfg(debug_assertions)]
        let before = self.structure_fingerprint();
        let solution = &mut self.solution;
        let result = on_shared_loop!(
            &mut self.engine,
            e => e.search(forced, excluded, solution, config, on_solution, start),
            links => match links {
                Engine::X(x) => x.search(forced, solution, config, on_solution, start),
                Engine::M(m) => m.search(forced, solution, config, on_solution, start),
                _ => unreachable!(),
            }
        );
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            self.structure_fingerprint(),
            before,
            "a search left the structure changed"
        );
        result
    }

    /// Makes every later search put the structure back only by undoing its moves, never
    /// by copying the pristine snapshot that small problems keep (the links of
    /// `Exact::restore`, the set order of `Cells::reset`): for tests, so that the path
    /// of large problems runs on problems small enough to check by brute force.
    #[doc(hidden)]
    pub fn undo_only(&mut self) {
        match &mut self.engine {
            Engine::X(x) => x.pristine = None,
            Engine::C(c) => c.s.forget_pristine(),
            Engine::S(s) => s.s.forget_pristine(),
            Engine::B(_) | Engine::M(_) | Engine::T1(_) | Engine::T2(_) | Engine::T4(_) => {}
        }
    }

    /// The children of the node of part `at` (forced options, exclusions), for
    /// splitting a search into disjoint parts (see [`parallel`]): a child for each
    /// option of the item the search would branch on there. `Ok(None)` when the node is
    /// a solution, an empty list when it has no child. Only for solvers whose
    /// [`Solver::can_branch`] is true.
    pub(crate) fn branch(&mut self, at: &share::Part) -> Result<Option<Vec<share::Child>>, Clash> {
        on_shared_loop!(
            &mut self.engine,
            e => e.branch(&at.forced, &at.excluded),
            _links => unreachable!("only the engines on the shared loop split their search")
        )
    }

    /// One random probe for Knuth's estimate (see [`estimate`]); `None` for engines
    /// that cannot probe (only dancing cells and bitsets can).
    pub(crate) fn probe(
        &mut self,
        forced: &[OptionId],
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<Result<(f64, f64), Clash>> {
        on_shared_loop!(&mut self.engine, e => Some(e.probe(forced, pick)), _links => None)
    }

    /// Whether this solver's search can be split into parts (dancing cells can).
    pub fn can_branch(&self) -> bool {
        on_shared_loop!(&self.engine, _e => true, _links => false)
    }

    /// A hash of the whole link structure, for tests that check a search left it
    /// exactly as it found it.
    #[doc(hidden)]
    pub fn structure_fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        on_shared_loop!(&self.engine, e => e.s.fingerprint(&mut h), links => match links {
            Engine::X(x) => x.links.hash(&mut h),
            Engine::M(m) => m.fingerprint(&mut h),
            _ => unreachable!(),
        });
        h.finish()
    }
}

impl Exact {
    /// Algorithm X with the forced options covered first.
    fn search(
        &mut self,
        forced: &[OptionId],
        solution: &mut Vec<OptionId>,
        config: &SearchConfig,
        on_solution: &mut dyn FnMut(&[OptionId]) -> Flow,
        start: Instant,
    ) -> Result<Outcome, Clash> {
        // Cover the forced options, watching for an item covered twice.
        let mut clash = None;
        let mut done = 0;
        let mut forced_updates = 0;
        'forced: for (k, &o) in forced.iter().enumerate() {
            for p in self.links.option_nodes(o) {
                let i = self.links.nodes[p as usize].top as u32;
                let by = self.forced_by[i as usize];
                if by != u32::MAX {
                    clash = Some(Clash {
                        first: forced[by as usize],
                        second: o,
                        item: self.links.item_id[i as usize - 1],
                        kind: ClashKind::Shared,
                    });
                    break 'forced;
                }
            }
            for p in self.links.option_nodes(o) {
                let i = self.links.nodes[p as usize].top as u32;
                self.forced_by[i as usize] = k as u32;
                self.links.cover(i, &mut forced_updates);
            }
            done = k + 1;
        }
        let (result, levels, search_updates) = match clash {
            Some(c) => (Err(c), 0, 0),
            None => {
                solution.clear();
                solution.extend_from_slice(forced);
                let (outcome, levels) = search::run(
                    &mut self.links,
                    &mut self.choice,
                    solution,
                    config,
                    on_solution,
                    start,
                );
                let updates = outcome.stats.updates;
                (Ok(outcome), levels, updates)
            }
        };
        for &o in &forced[..done] {
            for p in self.links.option_nodes(o) {
                let i = self.links.nodes[p as usize].top;
                self.forced_by[i as usize] = u32::MAX;
            }
        }
        // What is left to undo: the forced covers, and the levels still covered (at most
        // all the search's updates).
        let owed = forced_updates + if levels > 0 { search_updates } else { 0 };
        self.restore(forced, done, levels, owed);
        result
    }

    /// Puts the links back as they were before the search: `levels` levels of the search
    /// and the first `done` forced options are covered, `owed` updates' worth.
    ///
    /// Undoing costs a few nanoseconds an update, each a dependent access somewhere in
    /// the nodes; copying the pristine links back streams through them at under a
    /// nanosecond a node. A sudoku clue set costs about a thousand updates to force
    /// against 3,700 nodes, and the path to a first solution as many again, so copying
    /// wins by far there. Measured with `cargo bench --bench engine sudoku17` (first
    /// solution of the 49,158 17-clue puzzles): about a third less search time.
    fn restore(&mut self, forced: &[OptionId], done: usize, levels: usize, owed: u64) {
        if let Some(pristine) = &self.pristine
            && owed.saturating_mul(6) > pristine.nodes.len() as u64
        {
            self.links.nodes.copy_from_slice(&pristine.nodes);
            self.links.items.copy_from_slice(&pristine.items);
            self.links.len.copy_from_slice(&pristine.len);
            return;
        }
        search::unwind(&mut self.links, &self.choice, levels);
        for &o in forced[..done].iter().rev() {
            for p in self.links.option_nodes(o).rev() {
                let i = self.links.nodes[p as usize].top as u32;
                self.links.uncover(i);
            }
        }
    }
}

/// Whether `forced[k]` was forced before: every engine refuses that as a clash of the
/// option with itself, on its first item, since it would be counted (and charged) twice.
/// An option with no items (`first_item` is `None`) cannot clash.
pub(crate) fn forced_twice(
    forced: &[OptionId],
    k: usize,
    first_item: Option<ItemId>,
) -> Option<Clash> {
    let o = forced[k];
    let item = first_item?;
    forced[..k].contains(&o).then_some(Clash {
        first: o,
        second: o,
        item,
        kind: ClashKind::Shared,
    })
}

/// How a forced option that gives a secondary item color `has` clashes with the earlier
/// forced option that gave it `had` (0: no color, the item claimed outright): not at
/// all when both give the same color.
pub(crate) fn color_clash(had: u32, has: u32) -> Option<ClashKind> {
    if had == 0 || has == 0 {
        Some(ClashKind::Shared)
    } else {
        (had != has).then_some(ClashKind::Color)
    }
}

/// The cheap checks done every 1024 nodes: the time limit and the interrupt flag.
pub(crate) fn check_clock(config: &SearchConfig, start: Instant) -> Option<Limit> {
    if let Some(flag) = &config.interrupt
        && flag.load(std::sync::atomic::Ordering::Relaxed)
    {
        return Some(Limit::Interrupted);
    }
    if let Some(t) = config.time_limit
        && start.elapsed() >= t
    {
        return Some(Limit::Time);
    }
    None
}

/// A hash of `x`, for the fingerprints that check a search put its structure back.
pub(crate) fn hash_of(x: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{Entry, ProblemBuilder};

    /// Knuth's 6x7 example: one solution, options 1, 4, 5 (1-based).
    fn knuth() -> Problem {
        let mut b = ProblemBuilder::new();
        b.primary(["A", "B", "C", "D", "E", "F", "G"]);
        for o in [
            &["C", "E", "F"][..],
            &["A", "D", "G"],
            &["B", "C", "F"],
            &["A", "D"],
            &["B", "G"],
            &["D", "E", "G"],
        ] {
            b.option(o.iter().copied());
        }
        b.build()
    }

    /// Forced options checked at once by the bitsets ([`Structure::commit_forced_if_free`])
    /// and item by item by dancing cells: the same clash reported, or the same count,
    /// on random problems with secondary and colored items and random forced lists
    /// (with repeats).
    #[test]
    fn forced_clashes_are_the_same_checked_at_once() {
        let mut rng = crate::testing::Rng(0xC1A5_4ED0_F0C3_D11E);
        let (mut clashes, mut counts) = (0, 0);
        let config = SearchConfig {
            count_only: true,
            ..SearchConfig::default()
        };
        for case in 0..3000 {
            let p = crate::testing::random_problem(&mut rng, false);
            let forced: Vec<OptionId> = (0..rng.next(5))
                .map(|_| OptionId(rng.next(p.options.len() as u64) as u32))
                .collect();
            let mut bits = Solver::with_engine(&p, EngineChoice::Bits).unwrap();
            let mut cells = Solver::with_engine(&p, EngineChoice::Cells).unwrap();
            let pristine = bits.structure_fingerprint();
            let count = |s: &mut Solver| {
                s.search(&forced, &config, &mut |_| Flow::Continue)
                    .map(|o| o.stats.solutions)
            };
            let got = count(&mut bits);
            assert_eq!(got, count(&mut cells), "case {case}: {forced:?}");
            assert_eq!(bits.structure_fingerprint(), pristine, "case {case}");
            match got {
                Ok(_) => counts += 1,
                Err(_) => clashes += 1,
            }
        }
        assert!(
            clashes > 500 && counts > 500,
            "{clashes} clashes, {counts} counts"
        );
    }

    #[test]
    fn links_are_restored_after_every_kind_of_end() {
        // Both ways back: copying the pristine links, and undoing cover by cover.
        let copying = Solver::with_engine(&knuth(), EngineChoice::Links).unwrap();
        let mut undoing = copying.clone();
        match &mut undoing.engine {
            Engine::X(x) => x.pristine = None,
            _ => panic!("plain exact cover runs Algorithm X"),
        }
        for s in [copying, undoing] {
            restored_after_every_kind_of_end(s);
        }
        for undo_only in [false, true] {
            for (engine, name) in [
                (EngineChoice::Auto, "bitsets"),
                (EngineChoice::Cells, "dancing cells (SSXCC)"),
                (EngineChoice::CellsTrail, "dancing cells (SSXCC)"),
            ] {
                let mut s = Solver::with_engine(&knuth(), engine).unwrap();
                assert_eq!(s.engine_name(), name);
                if undo_only {
                    s.undo_only();
                }
                restored_after_every_kind_of_end(s);
            }
        }
    }

    fn restored_after_every_kind_of_end(mut s: Solver) {
        let pristine = s.structure_fingerprint();
        let mut all = Vec::new();
        let config = SearchConfig::default();
        let out = s
            .search(&[], &config, &mut |x| {
                all.push(x.to_vec());
                Flow::Continue
            })
            .unwrap();
        assert_eq!(out.end, End::Exhausted);
        // The engines choose items in other orders, so the solution's order differs.
        for x in &mut all {
            x.sort();
        }
        assert_eq!(all, vec![vec![OptionId(0), OptionId(3), OptionId(4)]]);
        assert_eq!(s.structure_fingerprint(), pristine);
        let out = s
            .search(&[OptionId(0)], &config, &mut |_| Flow::Stop)
            .unwrap();
        assert_eq!(out.end, End::Stopped);
        assert_eq!(s.structure_fingerprint(), pristine);
        let cut = SearchConfig {
            node_limit: Some(2),
            ..config.clone()
        };
        let out = s.search(&[], &cut, &mut |_| Flow::Continue).unwrap();
        assert_eq!(out.end, End::Cut(Limit::Nodes));
        assert_eq!(out.stats.nodes, 2);
        assert_eq!(s.structure_fingerprint(), pristine);
        let err = s
            .search(&[OptionId(3), OptionId(1)], &config, &mut |_| {
                Flow::Continue
            })
            .unwrap_err();
        assert_eq!(err.item, ItemId(0));
        assert_eq!(s.structure_fingerprint(), pristine);
    }

    #[test]
    fn colors_and_multiplicities_run_on_cells_and_the_general_engine_on_links() {
        let mut b = ProblemBuilder::new();
        b.primary(["a", "b"]).secondary(["x"]);
        b.option(["a", "x:red"]);
        b.option(["b", "x:red"]);
        b.option(["b", "x:blue"]);
        let colored = b.build();
        assert!(
            Solver::with_engine(&colored, EngineChoice::Links)
                .unwrap()
                .is_general()
        );
        let mut s = Solver::new(&colored).unwrap();
        assert!(!s.is_general());
        let out = s.search(&[], &SearchConfig::default(), &mut |x| {
            assert_eq!(x, [OptionId(0), OptionId(1)]);
            Flow::Continue
        });
        assert_eq!(out.unwrap().stats.solutions, 1);
        let err = s
            .search(
                &[OptionId(0), OptionId(2)],
                &SearchConfig::default(),
                &mut |_| Flow::Continue,
            )
            .unwrap_err();
        assert_eq!((err.item, err.kind), (ItemId(2), ClashKind::Color));
        let mut b = ProblemBuilder::new();
        b.primary_bounded("a", crate::problem::Bounds { lo: 1, hi: Some(2) });
        b.option(["a"]);
        b.option(["a"]);
        b.option(["a"]);
        let bounded = b.build();
        // Bitsets (a small problem) by default, their counts tallied (or kept, as in
        // larger problems), dancing cells with multiplicities, and Algorithm M on links
        // as the reference: the same count, the same clash.
        let bits = Solver::new(&bounded).unwrap();
        assert!(!bits.is_general() && bits.can_branch());
        assert_eq!(bits.engine_name(), "bitsets, counts tallied");
        let kept = Solver::with_engine(&bounded, EngineChoice::BitsKept).unwrap();
        assert!(!kept.is_general() && kept.can_branch());
        assert_eq!(kept.engine_name(), "bitsets");
        let cells = Solver::with_engine(&bounded, EngineChoice::Cells).unwrap();
        assert!(!cells.is_general() && cells.can_branch());
        assert_eq!(cells.engine_name(), "dancing cells, multiplicities (SSMCC)");
        let links = Solver::with_engine(&bounded, EngineChoice::Links).unwrap();
        assert!(links.is_general());
        for mut s in [bits, kept, cells, links] {
            let out = s.search(&[], &SearchConfig::default(), &mut |_| Flow::Continue);
            // 3 ways to take one option, 3 to take two.
            assert_eq!(out.unwrap().stats.solutions, 6);
            let err = s
                .search(
                    &[OptionId(0), OptionId(1), OptionId(2)],
                    &SearchConfig::default(),
                    &mut |_| Flow::Continue,
                )
                .unwrap_err();
            assert_eq!((err.first, err.second), (OptionId(0), OptionId(2)));
            assert_eq!(err.kind, ClashKind::Multiplicity);
        }
        assert!(!Solver::new(&knuth()).unwrap().is_general());
    }

    #[test]
    fn invalid_problems_are_refused_not_panicked_on() {
        let p = knuth();
        let edited = |edit: &dyn Fn(&mut Vec<Entry>)| {
            let mut q = p.clone();
            q.options = p
                .options
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let mut o = o.to_opt();
                    if k == 0 {
                        edit(&mut o.entries);
                    }
                    o
                })
                .collect();
            q
        };
        let twice = edited(&|es| es.push(es[0]));
        assert!(matches!(Solver::new(&twice), Err(Unsupported::Invalid(_))));
        let dangling = edited(&|es| es[0].item = ItemId(99));
        assert!(matches!(
            Solver::new(&dangling),
            Err(Unsupported::Invalid(_))
        ));
        // With multiplicities too, where the choice of engine reads the entries first.
        let mut bounded = dangling.clone();
        bounded.items[0].kind = crate::problem::ItemKind::Primary {
            bounds: crate::problem::Bounds { lo: 1, hi: Some(2) },
        };
        assert!(bounded.has_multiplicities());
        for choice in [
            EngineChoice::Auto,
            EngineChoice::Bits,
            EngineChoice::BitsKept,
        ] {
            assert!(matches!(
                Solver::with_engine(&bounded, choice),
                Err(Unsupported::Invalid(_))
            ));
        }
    }

    #[test]
    fn no_primary_items_means_one_empty_solution() {
        let mut b = ProblemBuilder::new();
        b.secondary(["x"]);
        b.option(["x"]);
        let mut s = Solver::new(&b.build()).unwrap();
        let out = s.search(&[], &SearchConfig::default(), &mut |_| Flow::Continue);
        assert_eq!(out.unwrap().stats.solutions, 1);
        let out = s.search(&[OptionId(0)], &SearchConfig::default(), &mut |x| {
            assert_eq!(x, [OptionId(0)]);
            Flow::Continue
        });
        assert_eq!(out.unwrap().stats.nodes, 1);
    }
}
