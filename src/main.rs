//! The `dlxc` command: parses arguments and hands them to the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact cover, declaratively: compile `.dlx` models and solve them with Dancing Links.
#[derive(Parser, Debug)]
#[command(name = "dlxc", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Explain a diagnostic code, with an example (`dlxc explain E0101`).
    Explain {
        /// The code, such as E0101 or dlx::E0101.
        code: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Explain { code } => match dlxc::diag::explain(&code) {
            Some(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("error: no diagnostic has the code `{code}`");
                ExitCode::from(2)
            }
        },
    }
}
