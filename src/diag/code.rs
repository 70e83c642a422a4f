//! The crate's diagnostic codes, in one place: `docs/errors`, where each code has its
//! explanation. `build.rs` makes the [`Code`] enum from that folder's pages, so a code
//! is declared by writing its explanation, and no diagnostic can carry a code that
//! `dlxc explain` does not know. Error and warning are told apart by the letter, as
//! the user reads them: `E0401`, `W0101`.

use std::fmt;
use std::str::FromStr;

use miette::Severity;

include!(concat!(env!("OUT_DIR"), "/codes.rs"));

impl Code {
    /// Whether it is an error (`E`) or a warning (`W`).
    pub fn severity(self) -> Severity {
        if self.as_str().starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        }
    }

    /// Its explanation, as `dlxc explain` prints it.
    pub fn explanation(self) -> &'static str {
        // The table is made from the same pages as the enum, in the same order.
        super::EXPLANATIONS[self as usize].1
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads `E0401`, `e0401` or miette's `dlx::E0401`.
impl FromStr for Code {
    type Err = ();

    fn from_str(s: &str) -> Result<Code, ()> {
        let s = s.trim();
        let s = s.strip_prefix("dlx::").unwrap_or(s);
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(s))
            .ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_and_has_its_page() {
        for &code in Code::ALL {
            assert_eq!(code.as_str().parse(), Ok(code));
            assert_eq!(format!("dlx::{code}").parse(), Ok(code));
            assert!(
                code.explanation().starts_with(&format!("# {code}")),
                "{code}: the page does not start with its code"
            );
            assert!(!code.title().is_empty(), "{code} has no title");
        }
        assert_eq!("e0401".parse(), Ok(Code::E0401));
        assert_eq!("E9999".parse::<Code>(), Err(()));
        assert_eq!(Code::W0101.severity(), Severity::Warning);
        assert_eq!(Code::E0101.severity(), Severity::Error);
    }
}
