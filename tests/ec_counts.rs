//! The `.ec` files of the shared exact-cover benchmark (`../shared/data/
//! exact_cover_benchmark`), counted by `dlxc solve`, which recognizes the format, against
//! the counts in `KNOWN_COUNTS.md` section 9: Bell numbers (set partitions), double
//! factorials (perfect matchings), and the recounted Latin-square, STS(15) and KTS(15)
//! sub-problems, including some with no cover at all. Only the files that count in
//! well under a second are run; the rest of each family is left to `dlxc solve`.

#[path = "common/cli.rs"]
mod cli;

use cli::{dlxc, shared_data};

#[test]
fn benchmark_files_count_as_published() {
    let cases = [
        // OEIS A000110 and A001147, closed forms.
        ("bell-05.ec", "52"),
        ("bell-08.ec", "4140"),
        ("bell-09.txt", "21147"),
        ("doublefact-07.ec", "105"),
        ("doublefact-11.ec", "10395"),
        // Recounted by one independent DLX program (KNOWN_COUNTS.md).
        ("latin6-blk-00001.ec", "48"),
        ("latin7-blk-00003.ec", "17280"),
        ("sts15-blk-00005.ec", "0"),
        ("sts15-blk-00006.ec", "40"),
        ("kts15-ptpt-0004.ec", "1"),
        ("kts15-ptpt-0021.txt", "72"),
    ];
    for (file, want) in cases {
        let path = shared_data(&format!("exact_cover_benchmark/{file}"));
        let r = dlxc(&["solve", path.to_str().unwrap(), "--count"]);
        let code = if want == "0" { 1 } else { 0 };
        assert_eq!(
            (r.code, r.stdout.trim()),
            (code, want),
            "{file}: {}",
            r.stderr
        );
    }
}

#[test]
fn shards_of_an_ec_file_add_up() {
    let path = shared_data("exact_cover_benchmark/bell-08.ec");
    let dir = std::env::temp_dir().join(format!("dlxc-ec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let r = dlxc(&[
            "solve",
            path.to_str().unwrap(),
            "--count",
            "--json",
            "--shard",
            &shard,
        ]);
        let f = dir.join(format!("{k}.json"));
        std::fs::write(&f, r.stdout).unwrap();
        files.push(f.display().to_string());
    }
    let r = dlxc(&["merge", &files[0], &files[1], &files[2]]);
    assert_eq!(r.stdout, "4140\n", "{}", r.stderr);
}
