//! Choosing the lines to print from ranked files: the best place of the best
//! file shown in full, a few strong alternatives, and the runners-up that come
//! close, one line each. Never a flood: the output is what a reader (or an
//! agent paying per token) needs to see.
//!
//! A *place* is a definition's body (`RankedLine::block`): the best line's
//! function is printed with its other strong lines, since an answer is usually
//! one function; other places of the file get one line each.

use super::lines::RankedLine;
use super::RankedFile;

/// Files shown at most.
pub const MAX_FILES: usize = 5;
/// A runner-up file is shown only if its score reaches this share of the top
/// file's: weaker files are noise.
pub const RUNNER_UP_SHARE: f64 = 0.6;
/// A runner-up this close to the top file is shown like the top file (its best
/// place in full): the two are a toss-up.
pub const CLOSE_SHARE: f64 = 0.9;
/// When the judge is not confident in the first file, the runners-up that
/// reach this share of its score are shown too, up to `UNSURE_MAX_FILES`:
/// one line each is cheap, and the answer is often among them.
pub const UNSURE_RUNNER_UP_SHARE: f64 = 0.4;
pub const UNSURE_MAX_FILES: usize = 8;
/// Lines printed from the best place of a file shown in full (its best line
/// included).
pub const PLACE_LINES: usize = 5;
/// A line of the best place is printed if it reaches this share of the best
/// line: the function's body shares the query's evidence.
pub const PLACE_LINE_SHARE: f64 = 0.2;
/// Other places of a file shown in full, one line each.
pub const OTHER_PLACES: usize = 2;
/// An other place must reach this share of the file's best line.
pub const OTHER_PLACE_SHARE: f64 = 0.6;
/// Two printed lines of one place are at least this far apart (adjacent lines
/// repeat each other); lines of different places at least `MIN_PLACE_GAP`.
pub const MIN_LINE_GAP: usize = 1;
pub const MIN_PLACE_GAP: usize = 3;

/// Chooses the lines to print, files in rank order, each file's lines sorted;
/// `max_lines` caps the total. 0 asks for everything: every ranked file, each
/// with all its lines that reach `PLACE_LINE_SHARE` of its best.
pub fn select(files: &[RankedFile], max_lines: usize) -> Vec<(usize, Vec<usize>)> {
    select_per_file(files, max_lines, None)
}

/// [`select`] with at most `per_file` lines of each file (`-m`): each file
/// keeps its *best* lines, and what a capped file leaves of `max_lines` goes
/// to the files after it. `Some(0)` caps nothing here: `-m 0` prints the
/// headings alone, which the printer does.
pub fn select_per_file(
    files: &[RankedFile],
    max_lines: usize,
    per_file: Option<usize>,
) -> Vec<(usize, Vec<usize>)> {
    select_within(files, max_lines, per_file, MAX_FILES, RUNNER_UP_SHARE)
}

/// [`select_per_file`] for results the judge is unsure of: more runners-up,
/// one line each (`UNSURE_MAX_FILES`, `UNSURE_RUNNER_UP_SHARE`).
pub fn select_unsure(
    files: &[RankedFile],
    max_lines: usize,
    per_file: Option<usize>,
) -> Vec<(usize, Vec<usize>)> {
    select_within(
        files,
        max_lines,
        per_file,
        UNSURE_MAX_FILES,
        UNSURE_RUNNER_UP_SHARE,
    )
}

fn select_within(
    files: &[RankedFile],
    max_lines: usize,
    per_file: Option<usize>,
    max_files: usize,
    runner_up_share: f64,
) -> Vec<(usize, Vec<usize>)> {
    let per_file = per_file.filter(|&m| m > 0).unwrap_or(usize::MAX);
    if max_lines == 0 {
        return files
            .iter()
            .map(|f| (f.haystack, strong_lines(&f.lines, per_file)))
            .filter(|(_, lines)| !lines.is_empty())
            .collect();
    }
    let Some(top) = files.first().map(|f| f.score) else {
        return Vec::new();
    };
    let cap = max_lines;
    let mut out = Vec::new();
    let mut total = 0;
    for (rank, file) in files.iter().take(max_files).enumerate() {
        if total >= cap || (rank > 0 && file.score < runner_up_share * top) {
            break;
        }
        let full = rank == 0 || file.score >= CLOSE_SHARE * top;
        // Best first, so a cap keeps the best.
        let mut chosen = if full {
            places(&file.lines)
        } else {
            best_line(&file.lines).into_iter().collect()
        };
        chosen.truncate(per_file.min(cap - total));
        if chosen.is_empty() {
            continue;
        }
        chosen.sort_unstable();
        total += chosen.len();
        out.push((file.haystack, chosen));
    }
    out
}

fn by_score(lines: &[RankedLine]) -> Vec<&RankedLine> {
    let mut order: Vec<&RankedLine> = lines.iter().filter(|l| l.score.total > 0.0).collect();
    order.sort_by(|a, b| {
        b.score
            .total
            .total_cmp(&a.score.total)
            .then(a.line.cmp(&b.line))
    });
    order
}

/// Every line reaching `PLACE_LINE_SHARE` of the file's best (the best
/// `per_file` of them), sorted.
fn strong_lines(lines: &[RankedLine], per_file: usize) -> Vec<usize> {
    let best = lines.iter().map(|l| l.score.total).fold(0.0, f64::max);
    let mut out: Vec<usize> = by_score(lines)
        .into_iter()
        .filter(|l| l.score.total >= PLACE_LINE_SHARE * best)
        .take(per_file)
        .map(|l| l.line)
        .collect();
    out.sort_unstable();
    out
}

fn best_line(lines: &[RankedLine]) -> Option<usize> {
    by_score(lines).first().map(|l| l.line)
}

/// The best place of a file in full, then its other strong places: in the
/// order chosen (best first).
fn places(lines: &[RankedLine]) -> Vec<usize> {
    let order = by_score(lines);
    let Some(best) = order.first() else {
        return Vec::new();
    };
    let mut chosen = vec![best.line];
    let far_from =
        |chosen: &[usize], n: usize, gap: usize| chosen.iter().all(|&c| c.abs_diff(n) > gap);
    if best.block != 0 {
        for l in &order[1..] {
            if chosen.len() >= PLACE_LINES || l.score.total < PLACE_LINE_SHARE * best.score.total {
                break;
            }
            if l.block == best.block && far_from(&chosen, l.line, MIN_LINE_GAP) {
                chosen.push(l.line);
            }
        }
    }
    let mut seen_blocks = vec![best.block];
    let mut others = 0;
    for l in &order[1..] {
        if others >= OTHER_PLACES || l.score.total < OTHER_PLACE_SHARE * best.score.total {
            break;
        }
        let new_place = l.block == 0 || !seen_blocks.contains(&l.block);
        if new_place && far_from(&chosen, l.line, MIN_PLACE_GAP) {
            chosen.push(l.line);
            seen_blocks.push(l.block);
            others += 1;
        }
    }
    chosen
}
