//! The output budget (`--token-budget N`, the MCP tools' `max_tokens`): how
//! much of a rendering fits in N tokens.
//!
//! Tokens are counted by [`estimate_tokens`] (three bytes a token, erring
//! high), the estimate the model stage's prompts use too, so "300 tokens"
//! means the same thing for a prompt and for output. Owns the
//! counting, the search for the longest prefix of results that fits, cutting a
//! text (an answer) to a budget, and what was left out. Does not own what a
//! prefix renders to: the caller passes a function that renders the first `k`
//! lines and returns the bytes.

/// Rough token count, erring high: three bytes per token. Measured on the
/// fixture corpus with Qwen2.5-Coder's tokenizer: 3.4 bytes per token for code
/// excerpts with the prompt around them (English prose is nearer four). Used
/// only to keep prompts and output under budget.
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(3)
}

/// Estimated tokens of rendered output (bytes that are not UTF-8 count as the
/// replacement characters they would be shown as, which errs high).
pub fn tokens(bytes: &[u8]) -> usize {
    estimate_tokens(&String::from_utf8_lossy(bytes))
}

/// The start of `text` within `max_tokens` estimated tokens, cut after the
/// last whole word that fits (mid-word when the text has no space near
/// there); the flag says whether anything was cut. For a text the user wrote
/// (a query) that a prompt or a result carries, where a pasted log must not
/// take the whole budget.
pub fn head(text: &str, max_tokens: usize) -> (&str, bool) {
    let max_bytes = max_tokens.saturating_mul(3);
    if text.len() <= max_bytes {
        return (text, false);
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let cut = match head.rfind(char::is_whitespace) {
        Some(space) if space >= end * 3 / 4 => head[..space].trim_end(),
        _ => head,
    };
    (cut, true)
}

/// What a budget left out of a run's output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// The budget, in tokens.
    pub max_tokens: usize,
    /// Match lines that would have printed without the budget and did not.
    pub lines: usize,
    /// Of the files that would have printed, those that did not print at all.
    pub files: usize,
    /// The answer was cut to fit.
    pub answer_cut: bool,
}

impl LeftOut {
    /// Whether anything was left out.
    pub fn is_any(&self) -> bool {
        self.lines > 0 || self.answer_cut
    }

    /// The note saying what was left out (for stderr, without the `kgrep: `
    /// prefix), `None` when nothing was. `name` is how the budget was asked
    /// for (`--token-budget`, `max_tokens`).
    pub fn note(&self, name: &str, total_lines: usize, total_files: usize) -> Option<String> {
        if !self.is_any() {
            return None;
        }
        let parts = self.parts(total_lines, total_files);
        Some(format!(
            "{name} {}: {} to stay within about {} tokens",
            self.max_tokens,
            parts.join(" and "),
            self.max_tokens
        ))
    }

    /// The note when even one line is over the budget and the best line was
    /// printed anyway ([`MIN_LINES`]).
    pub fn note_over(&self, name: &str, total_lines: usize, total_files: usize) -> String {
        let mut note = format!(
            "{name} {}: even the best line is over about {} tokens; printed it anyway",
            self.max_tokens, self.max_tokens
        );
        let parts = self.parts(total_lines, total_files);
        if !parts.is_empty() {
            note.push_str(&format!(" and {}", parts.join(" and ")));
        }
        note
    }

    fn parts(&self, total_lines: usize, total_files: usize) -> Vec<String> {
        let mut parts = Vec::new();
        if self.answer_cut {
            parts.push("cut the answer".to_string());
        }
        if self.lines > 0 {
            let mut part = format!(
                "left out {} of {} {}",
                self.lines,
                total_lines,
                plural(total_lines, "line", "lines"),
            );
            if self.files > 0 {
                part.push_str(&format!(
                    " ({} of {} {} entirely)",
                    self.files,
                    total_files,
                    plural(total_files, "file", "files"),
                ));
            }
            parts.push(part);
        }
        parts
    }
}

/// Lines a budget always leaves when there are any, even over it: the best
/// one. A budget that left nothing would tell a script "not found" (exit 1)
/// about a query that matched.
pub const MIN_LINES: usize = 1;

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The rendering of the most lines that fits in `max_tokens`: the largest `k`
/// in `0..=total` whose `render(k)` (the output with the first `k` lines)
/// estimates at most `max_tokens`, with its bytes. `k` is 0 when not even one
/// line fits; its bytes are then `render(0)` (headers a mode always prints,
/// such as the `--json` summary), which may itself be over the budget.
pub fn fit(
    total: usize,
    max_tokens: usize,
    mut render: impl FnMut(usize) -> anyhow::Result<Vec<u8>>,
) -> anyhow::Result<(usize, Vec<u8>)> {
    fit_by(total, max_tokens, |k| {
        let bytes = render(k)?;
        Ok((tokens(&bytes), bytes))
    })
}

/// [`fit`] for any measure: `measure(k)` gives the tokens of the output with
/// `k` units, and what to keep of it.
///
/// Output grows with `k`, so the search doubles `k` until the output is over
/// the budget, then bisects: about 2·log2(k) measures, none much larger than
/// the budget, however many units there are.
pub fn fit_by<T>(
    total: usize,
    max_tokens: usize,
    mut measure: impl FnMut(usize) -> anyhow::Result<(usize, T)>,
) -> anyhow::Result<(usize, T)> {
    let mut best = (0, measure(0)?.1);
    let mut over = None;
    let mut k = 1;
    while k <= total {
        let (used, kept) = measure(k)?;
        if used > max_tokens {
            over = Some(k);
            break;
        }
        best = (k, kept);
        if k == total {
            break;
        }
        k = (k * 2).min(total);
    }
    let Some(mut hi) = over else {
        return Ok(best);
    };
    while hi - best.0 > 1 {
        let mid = best.0 + (hi - best.0) / 2;
        let (used, kept) = measure(mid)?;
        if used > max_tokens {
            hi = mid;
        } else {
            best = (mid, kept);
        }
    }
    Ok(best)
}

/// Marks the end of an answer cut to fit the budget.
pub const CUT_MARK: &str = "\n[… cut to fit the token budget]";

/// The longest cut of `text` (see [`cut_at`]) whose `cost` is within
/// `max_tokens`, or `None` when the whole text fits. `cost` is the tokens of
/// the output that holds the text: the text alone, or a whole tool result.
pub fn cut_text(
    text: &str,
    max_tokens: usize,
    mut cost: impl FnMut(&str) -> anyhow::Result<usize>,
) -> anyhow::Result<Option<String>> {
    if cost(text)? <= max_tokens {
        return Ok(None);
    }
    let chars = text.chars().count();
    let (_, cut) = fit_by(chars.saturating_sub(1), max_tokens, |c| {
        let cut = cut_at(text, c);
        Ok((cost(&cut)?, cut))
    })?;
    Ok(Some(cut))
}

/// `text` cut after `chars` characters, back to the last line end within
/// them if there is one, with [`CUT_MARK`] after it (the mark alone when
/// nothing is left).
pub fn cut_at(text: &str, chars: usize) -> String {
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i);
    let kept = &text[..end];
    let kept = kept.rfind('\n').map_or(kept, |i| &kept[..i]);
    if kept.is_empty() {
        CUT_MARK.trim_start().to_string()
    } else {
        format!("{kept}{CUT_MARK}")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A rendering of `k` lines of `width` bytes each, after a header.
    fn lines(width: usize) -> impl FnMut(usize) -> anyhow::Result<Vec<u8>> {
        move |k| Ok(vec![b'x'; 10 + k * width])
    }

    #[test]
    fn fit_takes_the_most_lines_within_the_budget() {
        // 10 + 30k bytes = ceil((10 + 30k) / 3) tokens: k = 9 is 94 tokens.
        let (k, bytes) = fit(100, 95, lines(30)).unwrap();
        assert_eq!(k, 9);
        assert!(tokens(&bytes) <= 95);
        let (k, _) = fit(100, 104, lines(30)).unwrap();
        assert_eq!(k, 10, "104 tokens hold 310 bytes");
        for budget in 0..400 {
            let (k, bytes) = fit(37, budget, lines(7)).unwrap();
            let fits = |k: usize| (10 + k * 7).div_ceil(3) <= budget;
            assert!(k == 0 || fits(k), "budget {budget}: {k} does not fit");
            assert!(
                k == 37 || !fits(k + 1),
                "budget {budget}: {} fits too",
                k + 1
            );
            assert_eq!(bytes.len(), 10 + k * 7);
        }
    }

    #[test]
    fn fit_renders_few_prefixes() {
        let mut calls = 0;
        let (k, _) = fit(1_000_000, 1_000, |k| {
            calls += 1;
            Ok(vec![b'x'; k * 40])
        })
        .unwrap();
        assert_eq!(k, 75);
        assert!(calls < 20, "{calls} renderings");
    }

    #[test]
    fn nothing_fits_gives_the_empty_rendering() {
        let (k, bytes) = fit(5, 2, lines(100)).unwrap();
        assert_eq!((k, bytes.len()), (0, 10));
        let (k, _) = fit(0, 100, lines(1)).unwrap();
        assert_eq!(k, 0);
    }

    #[test]
    fn cut_text_keeps_whole_lines_then_characters() {
        let alone = |t: &str| Ok(estimate_tokens(t));
        let text = "first line of the answer\nsecond line\nthird line, long enough to be cut off";
        assert_eq!(cut_text(text, 100, alone).unwrap(), None);
        let cut = cut_text(text, 24, alone).unwrap().unwrap();
        assert!(estimate_tokens(&cut) <= 24, "{cut:?}");
        assert_eq!(
            cut,
            format!("first line of the answer\nsecond line{CUT_MARK}")
        );
        let one = "é".repeat(200);
        let cut = cut_text(&one, 30, alone).unwrap().unwrap();
        assert!(estimate_tokens(&cut) <= 30);
        assert!(cut.starts_with("éé"));
        assert_eq!(
            cut_text(&one, 1, alone).unwrap().unwrap(),
            CUT_MARK.trim_start()
        );
    }

    #[test]
    fn cut_text_fits_the_whole_output_that_holds_it() {
        // The text appears twice in its output, with 40 bytes around it.
        let twice = |t: &str| Ok(estimate_tokens(&format!("{:40}{t}{t}", "")));
        let text = "a line of the answer\n".repeat(20);
        let cut = cut_text(&text, 100, twice).unwrap().unwrap();
        assert!(twice(&cut).unwrap() <= 100, "{cut:?}");
        assert!(twice(&format!("a line of the answer\n{cut}")).unwrap() > 100);
    }

    #[test]
    fn the_note_says_what_was_left_out() {
        let left = LeftOut {
            max_tokens: 300,
            lines: 3,
            files: 1,
            answer_cut: false,
        };
        assert_eq!(
            left.note("--token-budget", 5, 2).unwrap(),
            "--token-budget 300: left out 3 of 5 lines (1 of 2 files entirely) \
             to stay within about 300 tokens"
        );
        let in_one_file = LeftOut { files: 0, ..left };
        assert_eq!(
            in_one_file.note("max_tokens", 5, 1).unwrap(),
            "max_tokens 300: left out 3 of 5 lines to stay within about 300 tokens"
        );
        assert_eq!(LeftOut::default().note("max_tokens", 5, 2), None);
    }
}
