//! Code units (`kgrep::units`) on real files: a parse-speed benchmark per
//! language, and a dump of what one file parses into.
//!
//!     cargo run --release --example units -- [--runs N] FILE...   (or paths on stdin)
//!     cargo run --release --example units -- --dump FILE
//!
//! The benchmark parses each file N times (default 5, best time kept) with the
//! grammar its extension names and prints, per language, the files, bytes,
//! units found, files given up on (too big, too slow, or failed) and MB/s:
//! bytes over the summed best times, extraction included, in the thread's CPU
//! time (what a core does, whatever the machine's load) and in wall time.
//! `tests/bench/units.sh` runs it over checked-out repositories. A benchmark
//! for people, not an assertion: not run in CI.

// Its report is its output.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;
use kgrep::units::{self, Lang};

#[derive(Default)]
struct Tally {
    files: usize,
    bytes: usize,
    units: usize,
    given_up: usize,
    /// Summed best wall-clock and CPU times of the files parsed.
    wall: Duration,
    cpu: Duration,
}

fn main() -> anyhow::Result<()> {
    let mut runs = 5;
    let mut dump = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dump" => dump = true,
            "--runs" => runs = args.next().unwrap_or_default().parse::<usize>()?.max(1),
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        // one path a line on stdin
        files = std::io::read_to_string(std::io::stdin())?
            .lines()
            .map(str::to_owned)
            .collect();
    }
    if dump {
        for file in &files {
            print_units(file)?;
        }
        return Ok(());
    }
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    for file in &files {
        let Some(lang) = Lang::of_path(file) else {
            continue;
        };
        let text = std::fs::read(file)?;
        let tally = tallies.entry(lang.name()).or_default();
        let (mut wall, mut cpu) = (Duration::MAX, Duration::MAX);
        let mut found = None;
        for _ in 0..runs {
            let start = Instant::now();
            let start_cpu = ThreadTime::try_now()?;
            found = units::parse(lang, &text);
            cpu = cpu.min(start_cpu.try_elapsed()?);
            wall = wall.min(start.elapsed());
        }
        tally.files += 1;
        match found {
            Some(found) => {
                tally.bytes += text.len();
                tally.units += found.units.len();
                tally.wall += wall;
                tally.cpu += cpu;
            }
            None => tally.given_up += 1,
        }
    }
    println!(
        "{:<11} {:>6} {:>10} {:>7} {:>8} {:>9} {:>9}",
        "language", "files", "bytes", "units", "given_up", "MB/s(cpu)", "MB/s(wall)"
    );
    let rate = |bytes: usize, time: Duration| bytes as f64 / time.as_secs_f64().max(1e-9) / 1e6;
    for (lang, t) in &tallies {
        println!(
            "{lang:<11} {:>6} {:>10} {:>7} {:>8} {:>9.2} {:>9.2}",
            t.files,
            t.bytes,
            t.units,
            t.given_up,
            rate(t.bytes, t.cpu),
            rate(t.bytes, t.wall)
        );
    }
    Ok(())
}

/// One line a unit (indented by depth), then the file's calls, strings and
/// comments counted.
fn print_units(file: &str) -> anyhow::Result<()> {
    let lang = Lang::of_path(file).ok_or_else(|| anyhow::anyhow!("{file}: no grammar"))?;
    let text = std::fs::read(file)?;
    let Some(found) = units::parse(lang, &text) else {
        println!("{file}: not parsed");
        return Ok(());
    };
    let show = |r: &std::ops::Range<usize>| String::from_utf8_lossy(&text[r.clone()]).into_owned();
    for (i, unit) in found.units.iter().enumerate() {
        let depth = found.ancestors(i).count() - 1;
        println!(
            "{}{} {} {}-{} def {}{}{}",
            "  ".repeat(depth),
            unit.kind.name(),
            unit.name.as_ref().map(show).unwrap_or_else(|| "-".into()),
            unit.start_line,
            unit.end_line,
            unit.def_line,
            if unit.test { " test" } else { "" },
            if unit.doc.is_empty() { "" } else { " doc" },
        );
    }
    println!(
        "{} units, {} calls, {} strings, {} comments",
        found.units.len(),
        found.calls.len(),
        found.strings.len(),
        found.comments.len()
    );
    Ok(())
}
