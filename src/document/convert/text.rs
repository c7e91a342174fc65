//! The text a converter writes: lines, a size limit, tidy whitespace.
//!
//! Every converter except PDF builds its output here, so they share one
//! layout: one line per paragraph (or table row, or spreadsheet row), no
//! trailing spaces, never two empty lines in a row, `===== … =====` marker
//! lines where a document has slides or sheets, and a final `\n` like a text
//! file. The size limit cuts a document that expands without end: the text
//! stops there, and [`TextOut::finish_after`] says it was cut (the caller
//! warns), instead of exhausting memory or time.

use super::{ConvertError, Converted, Format};

/// Converted text under construction.
pub(super) struct TextOut {
    buf: String,
    limit: usize,
    format: Format,
    /// The limit was reached: the text stops here.
    cut: bool,
}

impl TextOut {
    pub(super) fn new(format: Format, limit: usize) -> TextOut {
        TextOut {
            buf: String::new(),
            limit,
            format,
            cut: false,
        }
    }

    /// Appends text to the current line.
    pub(super) fn push_str(&mut self, text: &str) -> Result<(), ConvertError> {
        if self.buf.len() + text.len() > self.limit {
            self.cut = true;
            return Err(ConvertError::too_large(format!(
                "{} text over the {}-byte limit",
                self.format.name(),
                self.limit
            )));
        }
        self.buf.push_str(text);
        Ok(())
    }

    pub(super) fn push(&mut self, c: char) -> Result<(), ConvertError> {
        self.push_str(c.encode_utf8(&mut [0; 4]))
    }

    /// Appends a separator (a space or a tab) unless the line is empty or
    /// already ends in one; a tab (between cells) outranks a space (between
    /// paragraphs of one cell) and replaces it.
    pub(super) fn separate(&mut self, sep: char) -> Result<(), ConvertError> {
        if sep == '\t' && self.buf.ends_with(' ') {
            let trimmed = self.buf.trim_end_matches(' ').len();
            self.buf.truncate(trimmed);
        }
        if self.at_line_start() || self.buf.ends_with([' ', '\t']) {
            return Ok(());
        }
        self.push(sep)
    }

    /// Whether nothing was written on the current line yet.
    pub(super) fn at_line_start(&self) -> bool {
        self.buf.is_empty() || self.buf.ends_with('\n')
    }

    /// Ends the current line: trailing whitespace goes, and an empty line
    /// right after another empty line is not written.
    pub(super) fn end_line(&mut self) -> Result<(), ConvertError> {
        let trimmed = self.buf.trim_end_matches([' ', '\t']).len();
        self.buf.truncate(trimmed);
        let blank_before = self.buf.is_empty() || self.buf.ends_with("\n\n");
        if self.at_line_start() && blank_before {
            return Ok(());
        }
        self.push('\n')
    }

    /// Ends a table row: like [`Self::end_line`], but an empty row writes nothing.
    pub(super) fn end_row(&mut self) -> Result<(), ConvertError> {
        let trimmed = self.buf.trim_end_matches([' ', '\t']).len();
        self.buf.truncate(trimmed);
        if self.at_line_start() {
            return Ok(());
        }
        self.push('\n')
    }

    /// Writes a `===== label =====` marker on a line of its own.
    pub(super) fn marker(&mut self, label: &str) -> Result<(), ConvertError> {
        if !self.at_line_start() {
            self.end_line()?;
        }
        self.push_str(&format!("===== {label} ====="))?;
        self.end_line()
    }

    /// The text, ending in exactly one `\n` (nothing at all when empty).
    /// The converted document once its converter stopped with `result`: the
    /// text so far when the limit stopped it (marked cut), else the result's
    /// error, or the whole text.
    pub(super) fn finish_after(
        self,
        result: Result<(), ConvertError>,
    ) -> Result<Converted, ConvertError> {
        let cut = self.cut.then_some(self.limit);
        match result {
            Err(_) if cut.is_some() => {}
            Err(err) => return Err(err),
            Ok(()) => {}
        }
        Ok(Converted {
            text: self.finish(),
            pages: None,
            unread: Vec::new(),
            cut,
        })
    }

    pub(super) fn finish(mut self) -> String {
        let trimmed = self.buf.trim_end().len();
        self.buf.truncate(trimmed);
        if !self.buf.is_empty() {
            self.buf.push('\n');
        }
        self.buf
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn out() -> TextOut {
        TextOut::new(Format::Docx, 1000)
    }

    #[test]
    fn lines_lose_trailing_space_and_blank_runs() {
        let mut t = out();
        t.push_str("a  ").unwrap();
        t.end_line().unwrap();
        for _ in 0..3 {
            t.end_line().unwrap();
        }
        t.push_str("b").unwrap();
        t.end_line().unwrap();
        assert_eq!(t.finish(), "a\n\nb\n");
    }

    #[test]
    fn leading_blank_lines_are_dropped() {
        let mut t = out();
        t.end_line().unwrap();
        t.end_line().unwrap();
        t.push_str("x").unwrap();
        assert_eq!(t.finish(), "x\n");
    }

    #[test]
    fn separators_never_double_or_lead() {
        let mut t = out();
        t.separate('\t').unwrap();
        t.push_str("a").unwrap();
        t.separate('\t').unwrap();
        t.separate(' ').unwrap();
        t.push_str("b").unwrap();
        t.separate(' ').unwrap();
        t.separate('\t').unwrap();
        t.push_str("c").unwrap();
        assert_eq!(t.finish(), "a\tb\tc\n");
    }

    #[test]
    fn markers_start_their_own_line() {
        let mut t = out();
        t.push_str("before").unwrap();
        t.marker("Sheet: One").unwrap();
        t.push_str("after").unwrap();
        assert_eq!(t.finish(), "before\n===== Sheet: One =====\nafter\n");
    }

    #[test]
    fn the_limit_is_an_error() {
        let mut t = TextOut::new(Format::Xlsx, 4);
        t.push_str("abcd").unwrap();
        let err = t.push_str("e").unwrap_err();
        assert!(matches!(err, ConvertError::TooLarge(_)), "{err}");
        // The text so far is the document, marked cut at the limit.
        let converted = t.finish_after(Err(err)).unwrap();
        assert_eq!(converted.text, "abcd\n");
        assert_eq!(converted.cut, Some(4));
    }

    #[test]
    fn other_errors_stay_errors() {
        let t = TextOut::new(Format::Xlsx, 4);
        let err = ConvertError::too_large("an entry inflates past the limit");
        assert_eq!(t.finish_after(Err(err.clone())), Err(err));
    }

    #[test]
    fn empty_output_is_empty() {
        assert_eq!(out().finish(), "");
    }
}
