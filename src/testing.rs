//! Helpers shared by the unit tests of several modules.

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
