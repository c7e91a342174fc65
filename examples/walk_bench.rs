//! Times `walk::walk` over a directory, e.g. a Linux kernel tree (the target is
//! ~100 ms for 70k files on 2 cores):
//!
//! `cargo run --release --example walk_bench -- /path/to/linux [RUNS]`
#![allow(clippy::print_stdout)]

use std::path::PathBuf;
use std::time::Instant;

use kgrep::walk::{walk, WalkOptions};

/// Runs per invocation when not given: the first is usually a cold cache.
const DEFAULT_RUNS: usize = 3;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        kgrep::messages::error("usage: walk_bench DIR [RUNS]");
        std::process::exit(2);
    };
    let runs = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_RUNS);
    for _ in 0..runs {
        let start = Instant::now();
        let out = walk(&[PathBuf::from(".")], &WalkOptions::default(), &dir);
        println!(
            "{} haystacks, {} scanned, {:?}",
            out.haystacks.len(),
            out.scanned,
            start.elapsed()
        );
    }
}
