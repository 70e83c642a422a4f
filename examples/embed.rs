//! A program that embeds dlxc: it keeps its own global allocator (the library installs
//! none) and counts a shipped model through the public API in a few lines.
//!
//! ```sh
//! cargo run --release --example embed       # prints 92 and 724
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// This program's own allocator: the system's, counting what it hands out. Were the
/// library to install one too, this would not link.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is System's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is System's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    // The memory budget reads this program's figure.
    dlxc::lower::budget::set_gauge(|| HELD.load(Ordering::Relaxed));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/queens.dlx");
    let text = std::fs::read_to_string(path).expect("the shipped queens model");
    let model = dlxc::session::Front::load(dlxc::source::SourceFile::new(path, text))
        .expect("the shipped model compiles");
    for (n, expected) in [(8, 92), (10, 724)] {
        let inst = model.instance(&[format!("n={n}")]).expect("an instance");
        let counted = dlxc::run::count(&inst, 2).expect("a count");
        assert_eq!(counted.stats.solutions, expected);
        println!("{}", counted.stats.solutions);
    }
    assert!(
        HELD.load(Ordering::Relaxed) > 0,
        "the allocations went through this program's allocator"
    );
}
