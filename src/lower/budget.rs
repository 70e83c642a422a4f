//! The memory budget: how many bytes the process may hold while a model is lowered and
//! a matrix is built.
//!
//! The size limit (`--max-size`) counts items and options, but an item costs a couple of
//! kilobytes with its name and origin, so ten million of them need far more memory than
//! a machine has: the process was killed before the limit was reached. Here every
//! allocation is counted (the `cap` crate wraps the system allocator and keeps the total
//! in one atomic), and the loops that grow a problem ask [`exceeded`] as they go, so a
//! model that grows too large ends in a coded error naming what grew, not in the
//! out-of-memory killer.
//!
//! The library does not choose the process's allocator: a program that embeds dlxc
//! keeps its own `#[global_allocator]`. The program that owns the allocator says how
//! to read the total with [`set_gauge`] (the `dlxc` binary and the Python module wrap
//! the system allocator in `cap::Cap` and install its `allocated`). Without a gauge the
//! process's holdings are unknown, [`in_use`] reads 0 and the budget is not enforced:
//! the size limit (`--max-size`) still is.
//!
//! In a browser (`wasm32`) the module's linear memory is the process's memory: without
//! a gauge [`in_use`] reads its size, which only grows (what was freed is reused, not
//! returned), so the budget is enforced there too, and counts what the page's worker
//! ever held. A 32-bit address space holds at most 4 GiB, so the default budget there is
//! 1 GiB.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How to read the bytes the process holds, installed once by the allocator's owner.
static GAUGE: OnceLock<fn() -> usize> = OnceLock::new();

/// The budget in bytes; 0 until set, meaning [`default_budget`].
static BUDGET: AtomicUsize = AtomicUsize::new(0);

/// The default budget when the physical memory cannot be read: 4 GiB, or 1 GiB where
/// pointers are 32 bits wide (a browser's wasm32, whose memory is at most 4 GiB).
#[cfg(target_pointer_width = "64")]
const FALLBACK: usize = 4 << 30;
#[cfg(not(target_pointer_width = "64"))]
const FALLBACK: usize = 1 << 30;

/// Installs the gauge the budget reads: a function that returns the bytes the process
/// holds now (for example `|| ALLOCATOR.allocated()` of a `cap::Cap` global allocator).
/// The first gauge stays; whether this one was installed.
pub fn set_gauge(gauge: fn() -> usize) -> bool {
    GAUGE.set(gauge).is_ok()
}

/// Whether a gauge is installed, so that the budget is enforced (always in wasm32,
/// whose memory size is the fallback gauge).
pub fn measured() -> bool {
    GAUGE.get().is_some() || cfg!(target_arch = "wasm32")
}

/// Bytes the process holds now, as the gauge reads them; without one, the size of a
/// wasm32 module's linear memory, and 0 elsewhere.
pub fn in_use() -> usize {
    GAUGE.get().map_or_else(ungauged, |g| g())
}

#[cfg(target_arch = "wasm32")]
fn ungauged() -> usize {
    // Memory 0 is the module's only memory; its size is counted in 64 KiB pages.
    core::arch::wasm32::memory_size(0).saturating_mul(65536)
}

#[cfg(not(target_arch = "wasm32"))]
fn ungauged() -> usize {
    0
}

/// Sets the budget in bytes (`--max-memory`).
pub fn set_budget(bytes: usize) {
    BUDGET.store(bytes.max(1), Ordering::Relaxed);
}

/// The budget in bytes: what [`set_budget`] set, or [`default_budget`].
pub fn budget() -> usize {
    match BUDGET.load(Ordering::Relaxed) {
        0 => {
            let b = default_budget();
            BUDGET.store(b, Ordering::Relaxed);
            b
        }
        b => b,
    }
}

/// Half the physical memory, at most 4 GiB: far more than any sensible model needs,
/// and well clear of what makes the machine swap or kills the process. Under a limit
/// of the address space (`ulimit -v`, a batch system's memory limit), at most half of
/// it: the budget counts the allocator's live bytes only, and the code, the stacks of
/// the threads, the allocator's free lists and the growth of a vector (old and new
/// block at once) share that space. (A budget equal to a 4 GiB limit let a model of 9
/// million strings abort in an allocation instead of ending with E0505.)
pub fn default_budget() -> usize {
    let budget = physical_memory().map_or(FALLBACK, |m| (m / 2).min(FALLBACK));
    match std::fs::read_to_string("/proc/self/limits") {
        Ok(limits) => address_space_limit(&limits).map_or(budget, |l| budget.min(l / 2)),
        Err(_) => budget,
    }
}

/// The soft limit of the address space in the text of `/proc/self/limits`, if any.
fn address_space_limit(limits: &str) -> Option<usize> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

fn physical_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Whether the process holds more than the budget.
#[inline]
pub fn exceeded() -> bool {
    in_use() > budget()
}

/// A byte count as people write it: `1.5 GiB`, `300 MiB`, `12 KiB`.
pub fn human(bytes: usize) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else if v >= 100.0 || v.fract() < 0.05 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// A count rounded down to one significant digit (`123456` -> `100000`): how many
/// things a family made when the budget ran out depends a little on the allocator and
/// on what the process held before, and the diagnostic should read the same from run to
/// run.
pub fn about(n: usize) -> usize {
    let mut unit = 1;
    while n / unit >= 10 {
        unit *= 10;
    }
    n / unit * unit
}

/// Parses a size such as `4G`, `512M`, `100k` or `1000000` (bytes; the suffixes are
/// powers of 1024, with or without `iB`), for `--max-memory`.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: usize = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size; write bytes or a size such as 4G or 512M"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(format!("`{text}` has an unknown unit; use K, M, G or T")),
    };
    n.checked_mul(1 << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{text}` is not a usable size"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_space_limit_is_read_from_proc_limits() {
        let limited = "Limit                     Soft Limit           Hard Limit           Units     \n\
                       Max stack size            8388608              unlimited            bytes     \n\
                       Max address space         4294967296           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limited), Some(4 << 30));
        let free =
            "Max address space         unlimited            unlimited            bytes     \n";
        assert_eq!(address_space_limit(free), None);
    }

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("100k"), Ok(100 << 10));
        assert_eq!(parse_size("12345"), Ok(12345));
        assert!(parse_size("0").is_err());
        assert!(parse_size("4X").is_err());
        assert!(parse_size("G").is_err());
        assert!(parse_size("99999999999999999999T").is_err());
        assert_eq!(human(4 << 30), "4 GiB");
        assert_eq!(human(1536 << 20), "1.5 GiB");
        assert_eq!(human(10), "10 bytes");
        assert_eq!(about(123_456), 100_000);
        assert_eq!(about(99), 90);
        assert_eq!(about(7), 7);
    }

    #[test]
    fn allocations_are_counted() {
        crate::testing::install_gauge();
        // black_box: an allocation nobody reads may be elided by the optimizer (it is,
        // in a release build with thin LTO), and then nothing is counted. Other tests
        // allocate and free on other threads, so only a lower bound holds.
        let v: Vec<u8> = std::hint::black_box(Vec::with_capacity(64 << 20));
        assert!(in_use() >= 64 << 20);
        drop(v);
        assert!(default_budget() > 0 && default_budget() <= FALLBACK);
    }
}
