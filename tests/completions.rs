//! `dlxc completions SHELL` and `dlxc man`: generated from the command line's
//! definition, so every subcommand appears in them.

#[path = "common/cli.rs"]
mod cli;

use cli::dlxc;

#[test]
fn completions_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = dlxc(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        for sub in ["run", "check", "fmt", "lsp", "completions", "man"] {
            assert!(r.stdout.contains(sub), "{shell} lacks {sub}");
        }
    }
    assert_eq!(dlxc(&["completions", "tcsh"]).code, 2);
}

#[test]
fn the_man_page_is_roff_with_every_subcommand() {
    let r = dlxc(&["man"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(".TH dlxc 1"), "{}", &r.stdout[..200]);
    for sub in ["run", "check", "fmt", "lsp"] {
        assert!(r.stdout.contains(sub), "the man page lacks {sub}");
    }
}
