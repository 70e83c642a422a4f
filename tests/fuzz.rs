//! Fuzzing on stable Rust: a seeded mutation runner over the four readers of outside
//! text, run in this process through the same entry point as the `dlxc` binary.
//!
//! Targets: models (parse, check, lower: `dlxc compile`), Knuth's format and 0/1
//! matrices (`dlxc solve`, with a small node limit) and data files (`dlxc check --data`
//! on the shipped model each belongs to: every record read and lowered). The seeds are
//! the shipped examples and the golden inputs under `tests/ui`. Each case takes one
//! seed and applies a few mutations: byte flips, insertions and deletions, splices from
//! another seed, tokens of the language, extreme numbers, and repetitions of a slice
//! (up to hundreds of thousands of bytes, for the long-input cases: long lines, long
//! chains, many declarations).
//!
//! A case is a finding when it panics, takes longer than [`SLOW`] (processor time of
//! the thread, where Linux tells it; a data file gets a search's time limit more for
//! each record), ends with an exit code other than 0 to 3, or ends with code 2 without
//! a coded diagnostic. A stack overflow or an out-of-memory abort ends the whole
//! process: the case that did it is the file `target/fuzz/case-<target>.<ext>` left
//! behind, and the seed of the run is printed before each target starts.
//!
//! `fuzz_smoke` runs a few seconds per target on every `cargo test`. A long campaign:
//!
//! ```sh
//! DLXC_FUZZ_CASES=100000 DLXC_FUZZ_SECONDS=3600 DLXC_FUZZ_SEED=7 \
//!     cargo test --release --test fuzz -- --ignored --nocapture fuzz_campaign
//! ```
//!
//! (cases and seconds are per target; `DLXC_FUZZ_TARGETS=model,knuth` runs only
//! those). Findings are copied to `target/fuzz/findings/`. Cases are made valid UTF-8
//! unless `DLXC_FUZZ_RAW=1`: the CLI refuses other bytes before any reader sees them.

use std::io::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dlxc::cli::{Command, Emit, ModelArgs, SearchArgs, execute};
use dlxc::diag::RenderStyle;

/// Allocations counted as the `dlxc` binary counts them, so that the memory budget
/// holds here too: the library installs no allocator of its own.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A case slower than this is a finding in a campaign (the limits must end every case
/// well before); the smoke run on a busy CI machine allows more.
const SLOW: Duration = Duration::from_secs(if cfg!(debug_assertions) { 20 } else { 3 });
const SLOW_SMOKE: Duration = Duration::from_secs(if cfg!(debug_assertions) { 60 } else { 10 });

/// The time limit of each search (a data file searches once per record).
const PER_SEARCH: Duration = Duration::from_millis(500);

/// The size limit the cases run under, so that a mutated range ends quickly in E0501.
const MAX_SIZE: usize = 100_000;

/// The memory budget of the cases.
const BUDGET: usize = 768 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Model,
    Knuth,
    Matrix,
    Data,
}

impl Target {
    const ALL: [Target; 4] = [Target::Model, Target::Knuth, Target::Matrix, Target::Data];

    fn name(self) -> &'static str {
        match self {
            Target::Model => "model",
            Target::Knuth => "knuth",
            Target::Matrix => "matrix",
            Target::Data => "data",
        }
    }
}

/// One seed: its text and, for a data file, the model and arguments it goes with.
struct Seed {
    text: Vec<u8>,
    model: Option<(PathBuf, Vec<String>)>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ends: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| ends.iter().any(|e| p.to_string_lossy().ends_with(e)));
    out.sort();
    out
}

fn seeds(target: Target) -> Vec<Seed> {
    let r = root();
    let plain = |paths: Vec<PathBuf>| -> Vec<Seed> {
        paths
            .into_iter()
            .filter_map(|p| std::fs::read(&p).ok())
            .map(|text| Seed { text, model: None })
            .collect()
    };
    match target {
        Target::Model => {
            let mut p = files(&r.join("examples"), &[".dlx"]);
            for sub in ["check", "run", "compile", "syntax"] {
                p.extend(files(&r.join("tests/ui").join(sub), &[".dlx"]));
            }
            plain(p)
        }
        Target::Knuth => {
            let mut p = files(&r.join("examples/knuth"), &[""]);
            p.extend(files(&r.join("tests/ui/knuth"), &[".txt"]));
            plain(p)
        }
        Target::Matrix => {
            let mut p = files(&r.join("examples/matrix"), &[""]);
            p.extend(files(&r.join("tests/ui/matrix"), &[".txt"]));
            plain(p)
        }
        Target::Data => {
            let mut out = Vec::new();
            let shipped: [(&str, &str, &[&str]); 4] = [
                ("matchsticks.txt", "matchsticks.dlx", &[]),
                ("pearl.txt", "pearl.dlx", &[]),
                ("target-sudoku.txt", "target-sudoku.dlx", &[]),
                (
                    "sudoku16-spoj.txt",
                    "sudoku.dlx",
                    &["-p", "n=4", "-p", "alphabet=ABCDEFGHIJKLMNOP"],
                ),
            ];
            for (data, model, args) in shipped {
                if let Ok(text) = std::fs::read(r.join("examples/data").join(data)) {
                    let args = args.iter().map(|s| s.to_string()).collect();
                    out.push(Seed {
                        text,
                        model: Some((r.join("examples").join(model), args)),
                    });
                }
            }
            for p in files(&r.join("tests/ui/data"), &[".txt"]) {
                let Ok(text) = std::fs::read(&p) else {
                    continue;
                };
                let header = String::from_utf8_lossy(&text)
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("# model:").map(str::to_string));
                if let Some(h) = header {
                    let mut words = h.split_whitespace().map(str::to_string);
                    if let Some(model) = words.next() {
                        out.push(Seed {
                            text,
                            model: Some((r.join(model), words.collect())),
                        });
                    }
                }
            }
            out
        }
    }
}

/// Words that make mutations reach deeper than random bytes do.
const TOKENS: &[&str] = &[
    "param ",
    "let ",
    "fn ",
    "item ",
    "option ",
    "force ",
    "secondary ",
    "colored ",
    " for ",
    " in ",
    " where ",
    " covers ",
    " cost ",
    " paint ",
    "canvas ",
    "assert ",
    "minimize count",
    "maximize cost",
    " if ",
    " then ",
    " else ",
    " and ",
    " or ",
    " not ",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "=",
    "==",
    "..",
    "..=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "|",
    "&",
    "<",
    ">=",
    "\"",
    "\"\"\"",
    "#",
    "\n",
    " ",
    "_",
    "x",
    "i",
    "0",
    "1",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "4294967296",
    "100000",
    "1000000000",
    "0..100000",
    "0..1000000000",
    "len(",
    "str(",
    "sum(",
    "range(",
    "min(",
    "max(",
    "abs(",
    "é",
    "\u{0}",
    "\r\n",
    "\t",
    ":3",
    "2:5|",
    "|",
];

fn mutate(rng: &mut Rng, seeds: &[Seed], base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = v.len() as u64;
        let at = if len == 0 {
            0
        } else {
            rng.below(len + 1) as usize
        };
        match rng.below(9) {
            0 if !v.is_empty() => {
                let i = rng.below(len) as usize;
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.insert(at, rng.below(256) as u8),
            2 if !v.is_empty() => {
                let n = (1 + rng.below(16)) as usize;
                let end = (at + n).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 | 4 => {
                let t = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                v.splice(at..at, t.bytes());
            }
            5 => {
                let other = &seeds[rng.below(seeds.len() as u64) as usize].text;
                if !other.is_empty() {
                    let a = rng.below(other.len() as u64) as usize;
                    let b = (a + 1 + rng.below(200) as usize).min(other.len());
                    v.splice(at..at, other[a..b].iter().copied());
                }
            }
            6 if !v.is_empty() => {
                // Repeat a slice: long lines, long chains, many declarations.
                let a = rng.below(len) as usize;
                let b = (a + 1 + rng.below(40) as usize).min(v.len());
                let slice = v[a..b].to_vec();
                let times = match rng.below(4) {
                    0 => 2 + rng.below(10),
                    1 => 10 + rng.below(1_000),
                    2 => 1_000 + rng.below(20_000),
                    _ => 20_000 + rng.below(200_000 / slice.len() as u64 + 1),
                } as usize;
                let mut rep = Vec::with_capacity(slice.len() * times);
                for _ in 0..times {
                    rep.extend_from_slice(&slice);
                }
                v.splice(b..b, rep);
            }
            7 => {
                // Swap a number for an extreme one.
                let digits = v.iter().position(|c| c.is_ascii_digit());
                if let Some(i) = digits {
                    let j = (i..v.len())
                        .find(|&j| !v[j].is_ascii_digit())
                        .unwrap_or(v.len());
                    let t = [
                        "0",
                        "1",
                        "100000",
                        "9223372036854775807",
                        "4294967295",
                        "65536",
                    ][rng.below(6) as usize];
                    v.splice(i..j, t.bytes());
                }
            }
            _ => {
                let n = 1 + rng.below(8) as usize;
                for _ in 0..n {
                    let t = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                    let at = rng.below(v.len() as u64 + 1) as usize;
                    v.splice(at..at, t.bytes());
                }
            }
        }
    }
    v
}

/// What one case showed.
struct Outcome {
    code: Option<u8>,
    /// Searches run: `--count` prints one line per search.
    searches: u32,
    stderr: String,
    elapsed: Duration,
    panic: Option<String>,
}

fn run_case(target: Target, file: &Path, seed: &Seed) -> Outcome {
    let search = SearchArgs {
        count: true,
        node_limit: Some(5_000),
        time_limit: Some(PER_SEARCH.as_secs_f64()),
        ..SearchArgs::default()
    };
    let cmd = match target {
        Target::Model => Command::Compile(
            ModelArgs {
                model: file.to_path_buf(),
                max_size: MAX_SIZE,
                ..ModelArgs::default()
            },
            Emit::Knuth,
        ),
        Target::Knuth | Target::Matrix => Command::Solve {
            file: Some(file.to_path_buf()),
            matrix: target == Target::Matrix,
            search,
        },
        Target::Data => {
            // `check` reads and lowers every record without searching: a mutated file
            // of twenty thousand records would otherwise spend minutes in searches.
            let (model, params) = seed.model.clone().unwrap_or_default();
            Command::Check(ModelArgs {
                model,
                params,
                data: Some(file.to_path_buf()),
                max_size: MAX_SIZE,
            })
        }
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let start = Instant::now();
    let cpu = thread_cpu();
    let r = catch_unwind(AssertUnwindSafe(|| {
        execute(cmd, &mut out, &mut err, RenderStyle::GOLDEN)
    }));
    // Processor time where it can be read: the wall clock of a machine shared with
    // other builds says more about them than about the case.
    let elapsed = match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => start.elapsed(),
    };
    let stderr = String::from_utf8_lossy(&err).into_owned();
    let searches = out.iter().filter(|&&b| b == b'\n').count() as u32;
    match r {
        Ok(code) => Outcome {
            code: Some(code),
            searches,
            stderr,
            elapsed,
            panic: None,
        },
        Err(p) => Outcome {
            code: None,
            searches,
            stderr,
            elapsed,
            panic: Some(
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default(),
            ),
        },
    }
}

/// The processor time this thread has used (Linux; in clock ticks of 10 ms).
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Why a case is a finding, if it is one.
fn judge(o: &Outcome, slow: Duration) -> Option<String> {
    if let Some(p) = &o.panic {
        return Some(format!("panic: {}", p.lines().next().unwrap_or("")));
    }
    // Each record of a data file is a search of its own, with its own time limit.
    if o.elapsed > slow + PER_SEARCH * o.searches {
        return Some(format!("slow: {:.1} s", o.elapsed.as_secs_f64()));
    }
    match o.code {
        Some(0 | 1 | 3) => None,
        Some(2) if o.stderr.contains("dlx::E") => None,
        Some(2) => Some(format!(
            "exit 2 without a coded diagnostic: {}",
            o.stderr.lines().next().unwrap_or("")
        )),
        other => Some(format!("exit code {other:?}")),
    }
}

/// Figures of one target's run.
#[derive(Default, Debug)]
struct Figures {
    cases: u64,
    findings: Vec<String>,
    slowest: Duration,
    exit: [u64; 4],
    took: Duration,
}

fn campaign(
    target: Target,
    seed: u64,
    max_cases: u64,
    max_time: Duration,
    slow: Duration,
) -> Figures {
    let seeds = seeds(target);
    assert!(!seeds.is_empty(), "no seeds for {}", target.name());
    let dir = root().join("target/fuzz");
    std::fs::create_dir_all(dir.join("findings")).expect("target/fuzz");
    let ext = match target {
        Target::Model => "dlx",
        _ => "txt",
    };
    let file = dir.join(format!("case-{}.{ext}", target.name()));
    eprintln!(
        "fuzz {}: seed {seed}, {} seeds, up to {max_cases} cases or {} s; a crash leaves {}",
        target.name(),
        seeds.len(),
        max_time.as_secs(),
        file.display()
    );
    let raw = std::env::var_os("DLXC_FUZZ_RAW").is_some_and(|v| v == "1");
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut f = Figures::default();
    let start = Instant::now();
    while f.cases < max_cases && start.elapsed() < max_time {
        let s = &seeds[rng.below(seeds.len() as u64) as usize];
        let mut text = mutate(&mut rng, &seeds, &s.text);
        if !raw {
            // Text that is not UTF-8 is refused by the CLI before any reader sees it
            // (without a code: a known finding, kept out of the smoke test).
            text = String::from_utf8_lossy(&text).into_owned().into_bytes();
        }
        std::fs::write(&file, &text).expect("write the case");
        let o = run_case(target, &file, s);
        f.cases += 1;
        f.slowest = f.slowest.max(o.elapsed);
        if let Some(c) = o.code {
            f.exit[usize::from(c.min(3))] += 1;
        }
        if let Some(why) = judge(&o, slow) {
            let n = f.findings.len();
            let keep = dir
                .join("findings")
                .join(format!("{}-{seed}-{n}.{ext}", target.name()));
            let _ = std::fs::write(&keep, &text);
            let line = format!("{}: {why} ({})", target.name(), keep.display());
            eprintln!("{line}");
            f.findings.push(line);
        }
    }
    f.took = start.elapsed();
    let _ = std::io::stderr().flush();
    f
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs every target in a thread with the main thread's stack, as the binary runs.
fn run_all(cases: u64, seconds: u64, seed: u64, slow: Duration) -> Vec<String> {
    dlxc::lower::budget::set_gauge(|| ALLOCATOR.allocated());
    dlxc::lower::budget::set_budget(BUDGET);
    let mut findings = Vec::new();
    let only = std::env::var("DLXC_FUZZ_TARGETS").unwrap_or_default();
    for target in Target::ALL {
        if !only.is_empty() && !only.split(',').any(|t| t.trim() == target.name()) {
            continue;
        }
        let f = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || campaign(target, seed, cases, Duration::from_secs(seconds), slow))
            .expect("spawn")
            .join()
            .expect("the campaign thread");
        eprintln!(
            "fuzz {}: {} cases in {:.0} s, exit codes 0/1/2/3: {:?}, slowest {:.2} s, {} findings",
            target.name(),
            f.cases,
            f.took.as_secs_f64(),
            f.exit,
            f.slowest.as_secs_f64(),
            f.findings.len()
        );
        findings.extend(f.findings);
    }
    findings
}

#[test]
fn fuzz_smoke() {
    let seed = env_u64("DLXC_FUZZ_SEED", 1);
    let findings = run_all(
        env_u64("DLXC_FUZZ_SMOKE_CASES", 300),
        env_u64("DLXC_FUZZ_SMOKE_SECONDS", 6),
        seed,
        SLOW_SMOKE,
    );
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}

#[test]
#[ignore = "a long campaign: see the module documentation"]
fn fuzz_campaign() {
    let seed = env_u64("DLXC_FUZZ_SEED", 7);
    let findings = run_all(
        env_u64("DLXC_FUZZ_CASES", 25_000),
        env_u64("DLXC_FUZZ_SECONDS", 600),
        seed,
        SLOW,
    );
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}
