//! The exact-cover problem: the one interface between the language and the engine.
//!
//! A [`Problem`] is a list of items and a list of options, in Knuth's words. Each
//! option covers some items; a solution is a set of options that covers every primary
//! item exactly once (or, with a multiplicity interval, between `lo` and `hi` times) and
//! every secondary item at most once — or any number of times by options that agree on
//! its color.
//!
//! Everything that produces problems (the `.dlx` compiler, the Knuth-format reader, the
//! 0/1 matrix reader, test generators) builds this type, and everything that consumes
//! them (the engines, the Knuth-format writer, the JSON emitter) reads it. The engine
//! never sees the model that produced a problem: what it needs to say where something came
//! from travels in the opaque [`Origin`] of each item and option.
//!
//! Invariants, checked by [`Problem::validate`] and by the builders:
//! - item names are unique;
//! - an option names each item at most once;
//! - colors appear only on secondary items;
//! - multiplicity bounds appear only on primary items, with `lo <= hi`.

use std::collections::HashMap;
use std::fmt;

use crate::source::Span;

mod options;

pub use options::{Iter as OptionsIter, Opt, OptionRef, Options};

/// Index of an item in [`Problem::items`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub u32);

/// Index of an option in [`Problem::options`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OptionId(pub u32);

/// Index of a color in [`Problem::colors`].
///
/// Stored as the index plus one, so that an `Option<ColorId>` takes four bytes and an
/// [`Entry`] eight: a model of four million entries is common.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColorId(std::num::NonZeroU32);

impl ItemId {
    /// The index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl OptionId {
    /// The index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl ColorId {
    /// The color with this index. (More than 2^32 - 1 colors cannot be told apart;
    /// they would not fit in memory beside their names.)
    pub fn new(index: u32) -> ColorId {
        ColorId(std::num::NonZeroU32::MIN.saturating_add(index))
    }

    /// The index as a `usize`.
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// The index plus one, as the engines number colors (0 meaning "no color").
    pub fn number(self) -> u32 {
        self.0.get()
    }
}

/// How often a primary item must be covered: between `lo` and `hi` times.
///
/// `hi == None` means "no upper bound" (the `1..` of a repeated cover).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Least number of options that must cover the item.
    pub lo: u32,
    /// Most options that may cover the item, or `None` for no limit.
    pub hi: Option<u32>,
}

impl Bounds {
    /// Exactly once: the bounds of an ordinary primary item.
    pub const EXACTLY_ONCE: Bounds = Bounds { lo: 1, hi: Some(1) };

    /// Whether these are the bounds of a plain exact-cover item.
    pub fn is_exactly_once(self) -> bool {
        self == Bounds::EXACTLY_ONCE
    }
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hi {
            Some(hi) if hi == self.lo => write!(f, "{hi}"),
            Some(hi) => write!(f, "{}..{}", self.lo, hi),
            None => write!(f, "{}..", self.lo),
        }
    }
}

/// Whether an item must be covered (primary) or may be covered (secondary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// Covered a number of times within `bounds` (exactly once unless said otherwise).
    Primary {
        /// The multiplicity interval.
        bounds: Bounds,
    },
    /// Covered at most once, or by any number of options that give it the same color.
    Secondary,
}

impl ItemKind {
    /// A primary item covered exactly once.
    pub const PRIMARY: ItemKind = ItemKind::Primary {
        bounds: Bounds::EXACTLY_ONCE,
    };

    /// Whether this is a primary item.
    pub fn is_primary(self) -> bool {
        matches!(self, ItemKind::Primary { .. })
    }
}

/// Where an item or option came from, so that diagnostics and `--explain` can point back
/// at it. The engine carries it without looking inside.
///
/// It is small on purpose: a model of a million options pays for it a million times.
/// What else a diagnostic needs (an item's loop values, an option's index values) the
/// lowering keeps beside the problem, by family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// Made by code (tests, generators): nothing to point at.
    #[default]
    Synthetic,
    /// A line of a text file (Knuth's format, a 0/1 matrix), 1-based.
    Line(u32),
    /// A declaration of a model.
    Model {
        /// The declaration (item family, option family) in the model file.
        decl: Span,
    },
}

/// One item (Knuth's word; a column of the 0/1 matrix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The name, unique within the problem (`cell[3,4]`, `r0`, `a`).
    pub name: String,
    /// Primary with bounds, or secondary.
    pub kind: ItemKind,
    /// Where it was declared.
    pub origin: Origin,
}

/// One item of an option, with the color it gives that item, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item covered.
    pub item: ItemId,
    /// The color given to a secondary item; `None` means the option claims the item
    /// exclusively.
    pub color: Option<ColorId>,
}

/// A problem of exact cover with colors and multiplicities.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// The items, in declaration order. The order matters: the engine breaks ties
    /// between equally good items by taking the first.
    pub items: Vec<Item>,
    /// The options, in declaration order.
    pub options: Options,
    /// Color names, indexed by [`ColorId`].
    pub colors: Vec<String>,
}

/// A violated [`Problem`] invariant, found by [`Problem::validate`] or a builder.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// Two items share a name.
    #[error("item `{0}` is declared twice")]
    DuplicateItem(String),
    /// An option names one item twice.
    #[error("option {option} covers item `{item}` twice")]
    RepeatedItem {
        /// The option, as displayed by [`Problem::option_label`].
        option: String,
        /// The item.
        item: String,
    },
    /// An option gives a color to a primary item.
    #[error("option {option} gives a color to primary item `{item}`")]
    ColorOnPrimary {
        /// The option.
        option: String,
        /// The item.
        item: String,
    },
    /// Bounds with `lo > hi`.
    #[error("item `{item}` has bounds {lo}..{hi}, whose lower end is above the upper end")]
    EmptyBounds {
        /// The item.
        item: String,
        /// Lower bound.
        lo: u32,
        /// Upper bound.
        hi: u32,
    },
    /// An entry refers to an item or color that does not exist.
    #[error("option {option} refers to an item or color that does not exist")]
    Dangling {
        /// The option.
        option: String,
    },
}

impl Problem {
    /// An empty problem.
    pub fn new() -> Problem {
        Problem::default()
    }

    /// Adds an item and returns its id. Does not check that the name is new; see
    /// [`Problem::validate`].
    pub fn add_item(&mut self, name: impl Into<String>, kind: ItemKind, origin: Origin) -> ItemId {
        let id = ItemId(self.items.len() as u32);
        self.items.push(Item {
            name: name.into(),
            kind,
            origin,
        });
        id
    }

    /// Adds an option and returns its id.
    pub fn add_option(&mut self, opt: Opt) -> OptionId {
        self.options.push(opt.as_ref())
    }

    /// Returns the id of the color with this name, adding it if it is new.
    pub fn intern_color(&mut self, name: &str) -> ColorId {
        if let Some(i) = self.colors.iter().position(|c| c == name) {
            return ColorId::new(i as u32);
        }
        self.colors.push(name.to_string());
        ColorId::new(self.colors.len() as u32 - 1)
    }

    /// The item with this id.
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id.index()]
    }

    /// The option with this id.
    pub fn option(&self, id: OptionId) -> OptionRef<'_> {
        self.options.get(id.index())
    }

    /// The item ids with the primary items first, each kind in declaration order, and
    /// the number of primary items: the internal numbering of the engines, which keep
    /// primary items together and break ties by declaration order.
    pub fn primary_first(&self) -> (Vec<ItemId>, u32) {
        let ids = (0..self.items.len() as u32).map(ItemId);
        let mut order: Vec<ItemId> = ids
            .clone()
            .filter(|&i| self.item(i).kind.is_primary())
            .collect();
        let n1 = order.len() as u32;
        order.extend(ids.filter(|&i| !self.item(i).kind.is_primary()));
        (order, n1)
    }

    /// A hash of what the engine sees (items with their kinds and bounds, options with
    /// their entries, colors and costs; not names of options or origins), the same on
    /// every machine and in every version that keeps this function: shards and
    /// checkpoints carry it so that parts of one problem are never counted against
    /// another. FNV-1a over a canonical byte stream, 64 bits, as 16 hex digits.
    pub fn fingerprint(&self, forced: &[OptionId]) -> String {
        let mut h = Fnv::default();
        h.word(self.items.len() as u64);
        for item in &self.items {
            h.bytes(item.name.as_bytes());
            match item.kind {
                ItemKind::Primary { bounds } => {
                    h.word(1);
                    h.word(u64::from(bounds.lo));
                    h.word(bounds.hi.map_or(u64::MAX, u64::from));
                }
                ItemKind::Secondary => h.word(2),
            }
        }
        h.word(self.colors.len() as u64);
        for c in &self.colors {
            h.bytes(c.as_bytes());
        }
        h.word(self.options.len() as u64);
        for o in &self.options {
            h.word(o.entries.len() as u64);
            for e in o.entries {
                h.word(u64::from(e.item.0));
                h.word(e.color.map_or(u64::MAX, |c| c.index() as u64));
            }
            h.word(o.cost.map_or(u64::MAX, |c| c as u64));
        }
        h.word(forced.len() as u64);
        for f in forced {
            h.word(u64::from(f.0));
        }
        format!("{:016x}", h.0)
    }

    /// Number of primary items.
    pub fn primary_count(&self) -> usize {
        self.items.iter().filter(|i| i.kind.is_primary()).count()
    }

    /// Total number of entries (the 1s of the 0/1 matrix).
    pub fn entry_count(&self) -> usize {
        self.options.all_entries().len()
    }

    /// Whether any option gives any item a color.
    pub fn has_colors(&self) -> bool {
        self.options.all_entries().iter().any(|e| e.color.is_some())
    }

    /// Whether any primary item has bounds other than "exactly once".
    pub fn has_multiplicities(&self) -> bool {
        self.items.iter().any(|i| match i.kind {
            ItemKind::Primary { bounds } => !bounds.is_exactly_once(),
            ItemKind::Secondary => false,
        })
    }

    /// Whether any option has a cost.
    pub fn has_costs(&self) -> bool {
        self.options.has_costs()
    }

    /// A map from item name to id.
    pub fn item_index(&self) -> HashMap<&str, ItemId> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, item)| (item.name.as_str(), ItemId(i as u32)))
            .collect()
    }

    /// How an option is shown to a person: its name if it has one, otherwise its items
    /// as Knuth's programs print them (`a d g`, with `:color` after colored items).
    pub fn option_label(&self, id: OptionId) -> String {
        let opt = self.option(id);
        if let Some(name) = opt.name {
            return name.to_string();
        }
        self.option_items_text(id)
    }

    /// The items of an option, space-separated, with `:color` after colored items.
    pub fn option_items_text(&self, id: OptionId) -> String {
        let opt = self.option(id);
        let mut s = String::new();
        for (k, e) in opt.entries.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(&self.item(e.item).name);
            if let Some(c) = e.color {
                s.push(':');
                s.push_str(&self.colors[c.index()]);
            }
        }
        s
    }

    /// Checks the invariants listed in the module documentation.
    pub fn validate(&self) -> Result<(), ProblemError> {
        let mut seen = HashMap::with_capacity(self.items.len());
        for item in &self.items {
            if seen.insert(item.name.as_str(), ()).is_some() {
                return Err(ProblemError::DuplicateItem(item.name.clone()));
            }
            if let ItemKind::Primary {
                bounds: Bounds { lo, hi: Some(hi) },
            } = item.kind
                && lo > hi
            {
                return Err(ProblemError::EmptyBounds {
                    item: item.name.clone(),
                    lo,
                    hi,
                });
            }
        }
        let mut mark = vec![u32::MAX; self.items.len()];
        for (k, opt) in self.options.iter().enumerate() {
            let id = OptionId(k as u32);
            for e in opt.entries {
                let ok_color = e.color.is_none_or(|c| c.index() < self.colors.len());
                if e.item.index() >= self.items.len() || !ok_color {
                    return Err(ProblemError::Dangling {
                        option: format!("#{}", k + 1),
                    });
                }
                if mark[e.item.index()] == k as u32 {
                    return Err(ProblemError::RepeatedItem {
                        option: self.option_label(id),
                        item: self.item(e.item).name.clone(),
                    });
                }
                mark[e.item.index()] = k as u32;
                if e.color.is_some() && self.item(e.item).kind.is_primary() {
                    return Err(ProblemError::ColorOnPrimary {
                        option: self.option_label(id),
                        item: self.item(e.item).name.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// A compact way to build problems in tests and generators.
///
/// ```
/// use dlxc::problem::ProblemBuilder;
/// let mut b = ProblemBuilder::new();
/// b.primary(["a", "b", "c"]);
/// b.secondary(["x"]);
/// b.option(["a", "x"]);
/// b.option(["b", "c"]);
/// let problem = b.build();
/// assert_eq!(problem.options.len(), 2);
/// ```
#[derive(Debug, Default)]
pub struct ProblemBuilder {
    problem: Problem,
    index: HashMap<String, ItemId>,
}

impl ProblemBuilder {
    /// An empty builder.
    pub fn new() -> ProblemBuilder {
        ProblemBuilder::default()
    }

    fn add(&mut self, name: String, kind: ItemKind) -> ItemId {
        assert!(!self.index.contains_key(&name), "item {name} added twice");
        let id = self.problem.add_item(name.clone(), kind, Origin::Synthetic);
        self.index.insert(name, id);
        id
    }

    /// Adds primary items covered exactly once.
    pub fn primary<S: Into<String>>(&mut self, names: impl IntoIterator<Item = S>) -> &mut Self {
        for n in names {
            self.add(n.into(), ItemKind::PRIMARY);
        }
        self
    }

    /// Adds one primary item with a multiplicity interval.
    pub fn primary_bounded(&mut self, name: impl Into<String>, bounds: Bounds) -> &mut Self {
        self.add(name.into(), ItemKind::Primary { bounds });
        self
    }

    /// Adds secondary items.
    pub fn secondary<S: Into<String>>(&mut self, names: impl IntoIterator<Item = S>) -> &mut Self {
        for n in names {
            self.add(n.into(), ItemKind::Secondary);
        }
        self
    }

    /// Adds an option covering the named items. A name written `item:color` gives the
    /// item that color. Panics on an unknown item: builders are for code, not input.
    pub fn option<S: AsRef<str>>(&mut self, items: impl IntoIterator<Item = S>) -> OptionId {
        self.option_with(None, items, None)
    }

    /// Adds an option with a display name and a cost.
    pub fn option_with<S: AsRef<str>>(
        &mut self,
        name: Option<String>,
        items: impl IntoIterator<Item = S>,
        cost: Option<i64>,
    ) -> OptionId {
        let mut entries = Vec::new();
        for s in items {
            let s = s.as_ref();
            let (item, color) = match s.split_once(':') {
                Some((i, c)) => (i, Some(self.problem.intern_color(c))),
                None => (s, None),
            };
            let item = *self
                .index
                .get(item)
                .unwrap_or_else(|| panic!("unknown item {item}"));
            entries.push(Entry { item, color });
        }
        self.problem.add_option(Opt {
            name,
            entries,
            cost,
            origin: Origin::Synthetic,
        })
    }

    /// The finished problem. Panics if it breaks an invariant.
    pub fn build(self) -> Problem {
        if let Err(e) = self.problem.validate() {
            panic!("invalid problem: {e}");
        }
        self.problem
    }
}

/// FNV-1a, 64 bits: a hash that is the same on every platform and release, unlike the
/// standard library's (problem fingerprints, checkpoint checksums, the digest of an
/// optimization's cut). The hash so far is `.0`.
pub(crate) struct Fnv(pub(crate) u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub(crate) fn byte(&mut self, b: u8) {
        self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    pub(crate) fn word(&mut self, w: u64) {
        w.to_le_bytes().into_iter().for_each(|b| self.byte(b));
    }
    /// A length first, so that ("ab", "c") and ("a", "bc") differ.
    fn bytes(&mut self, s: &[u8]) {
        self.word(s.len() as u64);
        s.iter().for_each(|&b| self.byte(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_fall_back_to_items() {
        let mut b = ProblemBuilder::new();
        b.primary(["a", "b"]).secondary(["x"]);
        let o = b.option(["a", "x:red"]);
        let n = b.option_with(Some("named".into()), ["b"], Some(3));
        let p = b.build();
        assert_eq!(p.option_label(o), "a x:red");
        assert_eq!(p.option_label(n), "named");
        assert!(p.has_colors() && p.has_costs() && !p.has_multiplicities());
        assert_eq!(p.primary_count(), 2);
        assert_eq!(p.entry_count(), 3);
    }

    #[test]
    fn validate_finds_broken_invariants() {
        let mut p = Problem::new();
        let a = p.add_item("a", ItemKind::PRIMARY, Origin::Synthetic);
        let red = p.intern_color("red");
        p.add_option(Opt {
            name: None,
            entries: vec![Entry {
                item: a,
                color: Some(red),
            }],
            cost: None,
            origin: Origin::Synthetic,
        });
        assert!(matches!(
            p.validate(),
            Err(ProblemError::ColorOnPrimary { .. })
        ));
        p.options.clear();
        p.add_option(Opt {
            name: None,
            entries: vec![
                Entry {
                    item: a,
                    color: None
                };
                2
            ],
            cost: None,
            origin: Origin::Synthetic,
        });
        assert!(matches!(
            p.validate(),
            Err(ProblemError::RepeatedItem { .. })
        ));
        p.options.clear();
        p.add_item("a", ItemKind::Secondary, Origin::Synthetic);
        assert_eq!(p.validate(), Err(ProblemError::DuplicateItem("a".into())));
    }

    #[test]
    fn bounds_display_like_the_language() {
        assert_eq!(Bounds { lo: 1, hi: None }.to_string(), "1..");
        assert_eq!(Bounds { lo: 2, hi: Some(3) }.to_string(), "2..3");
        assert_eq!(Bounds::EXACTLY_ONCE.to_string(), "1");
    }
}
