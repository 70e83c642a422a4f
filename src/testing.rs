//! Helpers shared by the unit tests of several modules.

use crate::problem::{Bounds, Entry, ItemId, ItemKind, Opt, Problem};

/// A small deterministic generator (xorshift64), so randomized tests need no crate and
/// every failure replays.
pub(crate) struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A random problem with primary items (with `bounds`, some with multiplicities),
/// secondary and colored items.
pub(crate) fn random_problem(rng: &mut Rng, bounds: bool) -> Problem {
    let mut p = Problem::new();
    let primaries = 2 + rng.next(5) as usize;
    let secondaries = rng.next(4) as usize;
    for i in 0..primaries {
        let bounds = match if bounds { rng.next(6) } else { 5 } {
            0 => Bounds { lo: 0, hi: Some(2) },
            1 => Bounds { lo: 1, hi: Some(2) },
            2 => Bounds { lo: 2, hi: Some(2) },
            3 => Bounds { lo: 1, hi: None },
            _ => Bounds::EXACTLY_ONCE,
        };
        p.add_item(
            format!("p{i}"),
            ItemKind::Primary { bounds },
            Default::default(),
        );
    }
    for i in 0..secondaries {
        p.add_item(format!("s{i}"), ItemKind::Secondary, Default::default());
    }
    for _ in 0..4 + rng.next(10) {
        let mut entries = Vec::new();
        for i in 0..primaries + secondaries {
            if rng.next(3) == 0 {
                let color = (i >= primaries && rng.next(2) == 0)
                    .then(|| p.intern_color(["a", "b"][rng.next(2) as usize]));
                entries.push(Entry {
                    item: ItemId(i as u32),
                    color,
                });
            }
        }
        if entries.is_empty() {
            entries.push(Entry {
                item: ItemId(rng.next(primaries as u64) as u32),
                color: None,
            });
        }
        p.add_option(Opt {
            name: None,
            entries,
            cost: None,
            origin: Default::default(),
        });
    }
    p
}

/// The unit tests' allocator: the library installs none (a program that embeds it keeps
/// its own), so its test binary counts its allocations as the `dlxc` binary does, and
/// the budget's tests see real figures.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// Points the memory budget at the test binary's allocator.
pub(crate) fn install_gauge() {
    crate::lower::budget::set_gauge(|| ALLOCATOR.allocated());
}
