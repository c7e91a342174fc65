//! Start-up benchmark: the work kgrep does before it reads the first file of a
//! natural-language search — the embedded thesaurus loaded for the query, the
//! query analysed and expanded, and the term matcher (its automata) built —
//! timed in-process, without process creation or the walk.
//!
//!     cargo run --release --example startup [RUNS] [QUERY...]
//!
//! Prints the mean, median and worst of RUNS (default 200) cold-in-process
//! repetitions. A benchmark for people, not an assertion: not run in CI.

// Its report is its output.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use kgrep::query;
use kgrep::search::matcher::TermMatcher;
use kgrep::thesaurus::{self, LayerPaths};

const DEFAULT_RUNS: usize = 200;
const DEFAULT_QUERY: &str = "where is the connection pool size configured";

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let runs = args
        .next()
        .map(|r| r.parse::<usize>())
        .transpose()?
        .unwrap_or(DEFAULT_RUNS)
        .max(1);
    let words: Vec<String> = args.collect();
    let q = if words.is_empty() {
        DEFAULT_QUERY.to_string()
    } else {
        words.join(" ")
    };
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut patterns = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let thesaurus = thesaurus::load_layers(&LayerPaths {
            builtin: true,
            learned: None,
            project_roots: Vec::new(),
            extra: Vec::new(),
            focus: Some(query::focus_words(&q)),
        });
        let analysed = query::analyze_with(&q, &thesaurus);
        let matcher = TermMatcher::new(&analysed.terms)?;
        times.push(started.elapsed());
        patterns = matcher.term_count();
    }
    times.sort();
    let mean = times.iter().sum::<Duration>() / u32::try_from(runs)?;
    println!(
        "start-up for {q:?} ({patterns} terms), {runs} runs: mean {:.3} ms, median {:.3} ms, worst {:.3} ms",
        mean.as_secs_f64() * 1e3,
        times[runs / 2].as_secs_f64() * 1e3,
        times[runs - 1].as_secs_f64() * 1e3,
    );
    Ok(())
}
