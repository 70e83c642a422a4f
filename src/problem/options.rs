//! The options of a problem, stored end to end.
//!
//! A model of a million options is common (`queens -p n=1000`), so an option costs its
//! entries, its name's bytes and two offsets: no list or string of its own. Costs take
//! room only once some option has one, and origins are kept as runs, since a
//! declaration makes its options one after another.

use super::{Entry, OptionId, Origin};

/// One option (Knuth's word; a row of the 0/1 matrix), as stored in a [`Problem`]:
/// borrowed from the problem's arrays.
///
/// [`Problem`]: super::Problem
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRef<'a> {
    /// A display name (`put[0,0,5]`); options read from Knuth's format have none and are
    /// shown as their list of items.
    pub name: Option<&'a str>,
    /// The items covered, in the order written.
    pub entries: &'a [Entry],
    /// A cost for `minimize cost` / `maximize cost`, or `None`.
    pub cost: Option<i64>,
    /// Where it was declared.
    pub origin: Origin,
}

/// One option with everything it owns: what builders and tests hand to
/// [`Problem::add_option`](super::Problem::add_option).
///
/// Named `Opt` because `Option` is taken by the standard library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opt {
    /// A display name; `None` (or an empty name) shows the option as its items.
    pub name: Option<String>,
    /// The items covered, in the order written.
    pub entries: Vec<Entry>,
    /// A cost, or `None`.
    pub cost: Option<i64>,
    /// Where it was declared.
    pub origin: Origin,
}

impl OptionRef<'_> {
    /// A copy that owns its name and entries.
    pub fn to_opt(self) -> Opt {
        Opt {
            name: self.name.map(str::to_string),
            entries: self.entries.to_vec(),
            cost: self.cost,
            origin: self.origin,
        }
    }
}

impl Opt {
    /// The option as stored, borrowing from `self`.
    pub fn as_ref(&self) -> OptionRef<'_> {
        OptionRef {
            name: self.name.as_deref(),
            entries: &self.entries,
            cost: self.cost,
            origin: self.origin,
        }
    }
}

/// Every option of a problem, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The entries of every option, option after option.
    entries: Vec<Entry>,
    /// Where each option's entries end; they start where the previous option's end.
    ends: Vec<usize>,
    /// The names of every option, end to end; an unnamed option has an empty one.
    names: String,
    /// Where each option's name ends in `names`.
    name_ends: Vec<usize>,
    /// Each option's cost, or empty while no option has one.
    costs: Vec<Option<i64>>,
    /// Origins as runs: `(first option, origin)`, the first options increasing.
    origins: Vec<(u32, Origin)>,
}

impl Options {
    /// How many options there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Option number `k`. Panics when `k` is out of range, as indexing does.
    pub fn get(&self, k: usize) -> OptionRef<'_> {
        self.get_in_run(k, self.run_of(k))
    }

    /// Option `k`, whose origin is run number `run` of `origins`.
    fn get_in_run(&self, k: usize, run: usize) -> OptionRef<'_> {
        let start = |ends: &[usize]| if k == 0 { 0 } else { ends[k - 1] };
        let name = &self.names[start(&self.name_ends)..self.name_ends[k]];
        OptionRef {
            name: (!name.is_empty()).then_some(name),
            entries: &self.entries[start(&self.ends)..self.ends[k]],
            cost: self.costs.get(k).copied().flatten(),
            origin: self.origins.get(run).map_or(Origin::Synthetic, |&(_, o)| o),
        }
    }

    /// Every option, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            options: self,
            next: 0..self.len(),
            run: 0,
        }
    }

    /// The entries of every option, option after option.
    pub fn all_entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Whether some option has a cost.
    pub fn has_costs(&self) -> bool {
        self.costs.iter().any(Option::is_some)
    }

    /// The run of `origins` that option `k` lies in (the first option starts one).
    fn run_of(&self, k: usize) -> usize {
        let runs = self
            .origins
            .partition_point(|&(first, _)| first as usize <= k);
        runs.saturating_sub(1)
    }

    /// Adds an option and returns its id. The name is written by `name` into the
    /// problem's own text, so a caller that renders names need not allocate one per
    /// option; writing nothing leaves the option unnamed.
    pub fn push_with(
        &mut self,
        name: impl FnOnce(&mut String),
        entries: &[Entry],
        cost: Option<i64>,
        origin: Origin,
    ) -> OptionId {
        let k = self.len();
        name(&mut self.names);
        self.name_ends.push(self.names.len());
        self.entries.extend_from_slice(entries);
        self.ends.push(self.entries.len());
        if cost.is_some() || !self.costs.is_empty() {
            self.costs.resize(k, None);
            self.costs.push(cost);
        }
        if self.origins.last().is_none_or(|&(_, o)| o != origin) {
            // More than 2^32 options never get this far: the size limit and the memory
            // budget stop a model long before, and the readers count in u32 too.
            self.origins.push((k as u32, origin));
        }
        OptionId(k as u32)
    }

    /// Adds a copy of an option and returns its id.
    pub fn push(&mut self, opt: OptionRef<'_>) -> OptionId {
        self.push_with(
            |s| s.push_str(opt.name.unwrap_or("")),
            opt.entries,
            opt.cost,
            opt.origin,
        )
    }

    /// Makes room for `options` more options with `entries` entries and `name_bytes`
    /// bytes of names in all, when memory allows (otherwise the arrays grow as they
    /// fill).
    pub fn reserve(&mut self, options: usize, entries: usize, name_bytes: usize) {
        let _ = self.entries.try_reserve_exact(entries);
        let _ = self.ends.try_reserve_exact(options);
        let _ = self.names.try_reserve_exact(name_bytes);
        let _ = self.name_ends.try_reserve_exact(options);
    }

    /// Removes every option.
    pub fn clear(&mut self) {
        *self = Options::default();
    }
}

/// The options of a problem in order: [`Options::iter`].
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    options: &'a Options,
    next: std::ops::Range<usize>,
    /// The run of origins of the next option from the front: walked along, not searched
    /// for every option.
    run: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = OptionRef<'a>;

    fn next(&mut self) -> Option<OptionRef<'a>> {
        let k = self.next.next()?;
        let runs = &self.options.origins;
        while runs
            .get(self.run + 1)
            .is_some_and(|&(first, _)| first as usize <= k)
        {
            self.run += 1;
        }
        Some(self.options.get_in_run(k, self.run))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.next.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> DoubleEndedIterator for Iter<'a> {
    fn next_back(&mut self) -> Option<OptionRef<'a>> {
        self.next.next_back().map(|k| self.options.get(k))
    }
}

impl FromIterator<Opt> for Options {
    fn from_iter<I: IntoIterator<Item = Opt>>(iter: I) -> Options {
        let mut options = Options::default();
        for opt in iter {
            options.push(opt.as_ref());
        }
        options
    }
}

impl<'a> IntoIterator for &'a Options {
    type Item = OptionRef<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ItemId;
    use crate::source::Span;

    fn entry(i: u32) -> Entry {
        Entry {
            item: ItemId(i),
            color: None,
        }
    }

    #[test]
    fn options_read_back_as_pushed() {
        let mut o = Options::default();
        let model = Origin::Model {
            decl: Span { start: 3, end: 9 },
        };
        let opts = [
            Opt {
                name: Some("a[1]".into()),
                entries: vec![entry(0), entry(2)],
                cost: None,
                origin: model,
            },
            Opt {
                name: None,
                entries: vec![],
                cost: Some(-4),
                origin: model,
            },
            Opt {
                name: Some("b".into()),
                entries: vec![entry(1)],
                cost: None,
                origin: Origin::Line(7),
            },
        ];
        for (k, opt) in opts.iter().enumerate() {
            assert_eq!(o.push(opt.as_ref()), OptionId(k as u32));
        }
        assert_eq!(o.len(), 3);
        let back: Vec<Opt> = o.iter().map(OptionRef::to_opt).collect();
        assert_eq!(back, opts);
        assert_eq!(o.origins.len(), 2, "one run per declaration");
        assert!(o.has_costs());
        assert_eq!(o.all_entries().len(), 3);
        o.clear();
        assert!(o.is_empty() && !o.has_costs());
        // A cost on the first option, none on the next.
        o.push(opts[1].as_ref());
        o.push(opts[0].as_ref());
        assert_eq!((o.get(0).cost, o.get(1).cost), (Some(-4), None));
    }
}
