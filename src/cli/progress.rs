//! The progress line of a long count, on stderr.
//!
//! On a terminal it is an indicatif line that appears after about a second (a count
//! that ends sooner shows nothing) and is cleared when the count ends. With
//! `--progress` on a pipe or file it is a plain line every few seconds instead, so logs
//! of batch jobs show how far a count got.

use std::io::Write;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::ProgressMode;
use crate::solve::parallel::Progress;

/// A count shows nothing during its first second.
const QUIET_START: Duration = Duration::from_secs(1);
/// Plain progress lines on a pipe: one every this long.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// Shows the progress of one count.
pub(crate) struct Meter {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    /// When the last plain line was written.
    last_line: Option<Duration>,
    /// The share explored at the first tick (a resumed count starts above 0).
    start_share: Option<f64>,
}

impl Meter {
    pub fn new(mode: ProgressMode) -> Meter {
        Meter {
            mode,
            bar: None,
            last_line: None,
            start_share: None,
        }
    }

    /// Shows `p`, if the count has run long enough.
    pub fn show(&mut self, p: &Progress) {
        let start = *self.start_share.get_or_insert(p.explored);
        if self.mode == ProgressMode::Off || p.elapsed < QUIET_START {
            return;
        }
        let text = describe(p, start);
        match self.mode {
            ProgressMode::Bar => {
                let bar = self.bar.get_or_insert_with(|| {
                    let bar = ProgressBar::with_draw_target(
                        Some(1000),
                        ProgressDrawTarget::stderr_with_hz(4),
                    );
                    bar.set_style(
                        ProgressStyle::with_template("{bar:20} {msg}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    bar
                });
                bar.set_position((p.explored.clamp(0.0, 1.0) * 1000.0) as u64);
                bar.set_message(text);
            }
            ProgressMode::Lines => {
                if self
                    .last_line
                    .is_none_or(|at| p.elapsed.saturating_sub(at) >= LINE_EVERY)
                {
                    self.last_line = Some(p.elapsed);
                    let _ = writeln!(std::io::stderr(), "progress: {text}");
                }
            }
            ProgressMode::Off => {}
        }
    }

    /// Takes the line away (before the answer is printed).
    pub fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// `41.2% explored, 1,234 solutions, 2.1M nodes/s, about 3m 10s left`.
fn describe(p: &Progress, start_share: f64) -> String {
    let secs = p.elapsed.as_secs_f64().max(1e-9);
    let explored = p.explored.clamp(0.0, 1.0);
    let rate = (explored - start_share) / secs;
    let left = if rate > 0.0 {
        format!("about {} left", duration((1.0 - explored) / rate))
    } else {
        "time left unknown".to_string()
    };
    format!(
        "{:.1}% explored, {} solutions, {} nodes/s, {left}",
        explored * 100.0,
        grouped(p.solutions),
        metric(p.nodes as f64 / secs)
    )
}

/// 1234567 as `1,234,567`.
pub(crate) fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// 2_100_000.0 as `2.1M`.
pub(crate) fn metric(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.1}G", x / 1e9),
        x if x >= 1e6 => format!("{:.1}M", x / 1e6),
        x if x >= 1e3 => format!("{:.1}k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

/// Seconds as `3m 10s`, `2h 05m`, `4d 07h`.
pub(crate) fn duration(secs: f64) -> String {
    if !secs.is_finite() || secs > 1e12 {
        return "forever".to_string();
    }
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        3600..86400 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {:02}h", s / 86400, s % 86400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234), "1,234");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(metric(950.0), "950");
        assert_eq!(metric(2_100_000.0), "2.1M");
        assert_eq!(duration(59.4), "59s");
        assert_eq!(duration(190.0), "3m 10s");
        assert_eq!(duration(7500.0), "2h 05m");
        assert_eq!(duration(3.0 * 86400.0 + 7200.0), "3d 02h");
        assert_eq!(duration(f64::INFINITY), "forever");
    }

    #[test]
    fn the_time_left_comes_from_the_rate_of_this_run() {
        let p = Progress {
            explored: 0.6,
            solutions: 1500,
            nodes: 3_000_000,
            elapsed: Duration::from_secs(10),
        };
        // A resumed run that started at 0.5: 0.1 in 10 s, 0.4 left, 40 s.
        assert_eq!(
            describe(&p, 0.5),
            "60.0% explored, 1,500 solutions, 300.0k nodes/s, about 40s left"
        );
    }
}
