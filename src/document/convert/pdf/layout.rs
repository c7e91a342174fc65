//! One PDF page's text, laid out as pypdf's plain `extract_text()` lays it out.
//!
//! A port of pypdf's `TextExtraction` and `crlf_space_check`, on lopdf's
//! content-stream parser: text-showing operators (`Tj`, `TJ`, `'`, `"`) append
//! characters; after each text or positioning operator the pen's position (text
//! matrix × CTM) is compared with the previous one: a move across lines of more
//! than 0.8 of the font height ends the line (`\n`), a move along the line wider
//! than the text shown plus half a space adds a space. A form XObject (`Do`)
//! starts on a new line and is extracted recursively, as pypdf does.
//!
//! Work is bounded by [`Budget`]: decompressed content per stream and per
//! document, form depth, and output size.

use std::collections::BTreeMap;

use lopdf::content::{Content, Operation};
use lopdf::{DecompressError, Dictionary, Document, Object, ObjectId, Stream};

use super::font::{decoding_dict, Font};
use super::resources::{number, Resources};
use super::type1::Type1Cache;
use crate::document::convert::{ConvertError, Limits, MAX_PDF_FORM_DEPTH};

/// A 2-D affine matrix `[a b c d e f]`, as PDF writes them.
type Matrix = [f64; 6];
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// pypdf's `mult(m, n)`: `m × n`.
fn mult(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

/// An operator no PDF uses, appended to a content stream to tell a stream
/// parsed to its end from one whose parsing stopped (`stream_text`).
const END_OPERATOR: &str = "kgrepEndOfContent";

/// Why part of a page's text is missing, as the warning says it.
const UNPARSED: &str =
    "its content stops parsing part way (nested too deeply, or damaged); the text after that point is missing";
const TOO_DEEP: &str = "it nests forms deeper than kgrep follows; their text is missing";
const UNDECODABLE: &str = "its content could not be decoded (a broken or unknown filter)";
const MISSING_STREAM: &str = "one of its content streams is missing";
const UNREADABLE_FORM: &str = "a form on it could not be decoded; its text is missing";

/// Why a page gave no text.
#[derive(Debug)]
pub(super) enum PageError {
    /// A limit was hit: the whole document is skipped.
    Limit(ConvertError),
    /// The page could not be read: it counts as empty, as in rlmgrep.
    Unreadable,
}

/// What is left to spend on one document, and font encodings worked out
/// once for it.
pub(super) struct Budget {
    content_left: usize,
    stream_limit: usize,
    text_left: usize,
    type1: Type1Cache,
    /// What the page being read lost (its text there is missing): said once
    /// per cause, taken by the caller after each page ([`Budget::take_lost`]).
    lost: Vec<&'static str>,
}

impl Budget {
    pub(super) fn new(limits: &Limits) -> Budget {
        Budget {
            content_left: limits.max_pdf_content_bytes,
            stream_limit: limits.max_pdf_stream_bytes,
            text_left: limits.max_text_bytes,
            type1: Type1Cache::default(),
            lost: Vec::new(),
        }
    }

    /// Records that part of the page's text could not be read, and why.
    fn lose(&mut self, why: &'static str) {
        if !self.lost.contains(&why) {
            self.lost.push(why);
        }
    }

    /// Why the page just read lost text (none: it was read in full).
    pub(super) fn take_lost(&mut self) -> Vec<&'static str> {
        std::mem::take(&mut self.lost)
    }

    /// The most one more stream may inflate to.
    fn next_stream(&self) -> usize {
        self.stream_limit.min(self.content_left)
    }

    fn spend_content(&mut self, bytes: usize) -> Result<(), PageError> {
        self.content_left = self.content_left.checked_sub(bytes).ok_or_else(|| {
            PageError::Limit(ConvertError::too_large(
                "PDF content over the limit for one document",
            ))
        })?;
        Ok(())
    }

    fn spend_text(&mut self, bytes: usize) -> Result<(), PageError> {
        self.text_left = self
            .text_left
            .checked_sub(bytes)
            .ok_or_else(|| PageError::Limit(ConvertError::too_large("PDF text over the limit")))?;
        Ok(())
    }
}

fn limit_error(err: lopdf::Error) -> PageError {
    match err {
        lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit }) => {
            PageError::Limit(ConvertError::too_large(format!(
                "a PDF page inflates past the {limit}-byte limit"
            )))
        }
        _ => PageError::Unreadable,
    }
}

/// The text of one page.
pub(super) fn page_text(
    doc: &Document,
    page: ObjectId,
    budget: &mut Budget,
) -> Result<String, PageError> {
    let content = page_content(doc, page, budget)?;
    budget.spend_content(content.len())?;
    let resources = Resources::of_page(doc, page);
    let mut chain = vec![page];
    let text = stream_text(doc, &content, &resources, budget, &mut chain)?;
    budget.spend_text(text.len())?;
    Ok(text)
}

/// The page's content streams, concatenated, bounded as lopdf's
/// `get_page_content_with_limit` bounds them, which this follows: a stream
/// that fails to decode is read as its raw bytes (as lopdf and pypdf do),
/// and the page is said to have lost text.
fn page_content(doc: &Document, page: ObjectId, budget: &mut Budget) -> Result<Vec<u8>, PageError> {
    let limit = budget.next_stream();
    let over = || {
        PageError::Limit(ConvertError::too_large(format!(
            "a PDF page inflates past the {limit}-byte limit"
        )))
    };
    let mut content = Vec::new();
    for id in doc.get_page_contents(page) {
        let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
            budget.lose(MISSING_STREAM);
            continue;
        };
        let remaining = limit.saturating_sub(content.len());
        match stream.decompressed_content_with_limit(remaining) {
            Ok(data) => {
                if data.is_empty() && is_broken_flate(stream) {
                    budget.lose(UNDECODABLE);
                }
                content.extend_from_slice(&data);
            }
            Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                return Err(over())
            }
            Err(_) if stream.content.len() <= remaining => {
                budget.lose(UNDECODABLE);
                content.extend_from_slice(&stream.content);
            }
            Err(_) => return Err(over()),
        }
        content.push(b'\n');
    }
    Ok(content)
}

/// Whether a stream that decoded to nothing is Flate data that does not
/// inflate: lopdf gives a Flate stream it cannot inflate (after trying zlib,
/// then raw deflate) as empty rather than as an error. An empty stream that
/// inflates to nothing is a blank page, not a broken one.
fn is_broken_flate(stream: &Stream) -> bool {
    use std::io::Read;
    let raw = &stream.content;
    let flate = stream
        .filters()
        .is_ok_and(|f| f.first().is_some_and(|f| *f == b"FlateDecode"));
    if !flate || raw.is_empty() {
        return false;
    }
    // Nothing came out, so reading to the end costs nothing.
    let zlib = flate2::read::ZlibDecoder::new(raw.as_slice())
        .read_to_end(&mut Vec::new())
        .is_ok();
    let deflate = raw.len() > 2
        && flate2::read::DeflateDecoder::new(&raw[2..])
            .read_to_end(&mut Vec::new())
            .is_ok();
    !zlib && !deflate
}

/// The text of one content stream (a page's or a form's).
fn stream_text<'d>(
    doc: &'d Document,
    content: &[u8],
    resources: &Resources<'d>,
    budget: &mut Budget,
    chain: &mut Vec<ObjectId>,
) -> Result<String, PageError> {
    let font_dicts = resources.fonts(doc);
    // Copies that make lopdf decode through /ToUnicode or a Type 1 program's
    // own encoding; they must outlive the fonts.
    let copies: BTreeMap<&Vec<u8>, Dictionary> = font_dicts
        .iter()
        .filter_map(|(name, d)| {
            let copy = decoding_dict(d).or_else(|| budget.type1.decoding_dict(doc, d));
            copy.map(|copy| (name, copy))
        })
        .collect();
    let fonts: BTreeMap<&[u8], Font<'_>> = font_dicts
        .iter()
        .map(|(name, d)| {
            let source = copies.get(name).unwrap_or(d);
            (name.as_slice(), Font::new(doc, d, source))
        })
        .collect();
    let mut ex = Extractor::new(&fonts);
    // A content stream that stops parsing keeps the text read so far; the
    // rest is lost, and said so. lopdf's parser ends quietly at what it
    // cannot parse (an array nested too deeply, garbage), so the stream is
    // parsed with an operator of kgrep's own after its end: reaching it
    // means every operation before it was read.
    let mut data = Vec::with_capacity(content.len() + END_OPERATOR.len() + 2);
    data.extend_from_slice(content);
    data.push(b'\n');
    data.extend_from_slice(END_OPERATOR.as_bytes());
    data.push(b'\n');
    let mut read_to_the_end = false;
    for op in Content::decode_iter(&data) {
        let Ok(op) = op else { break };
        if op.operator == END_OPERATOR {
            read_to_the_end = true;
            break;
        }
        if op.operator == "Do" {
            ex.flush_for_form();
            let form = op.operands.first().and_then(|o| o.as_name().ok());
            if let Some(name) = form {
                let text = form_text(doc, name, resources, budget, chain)?;
                ex.output.push_str(&text);
            }
        } else {
            ex.operation(&op);
        }
    }
    if !read_to_the_end {
        budget.lose(UNPARSED);
    }
    Ok(ex.finish())
}

/// The text of the form XObject `name`, or nothing for images, cycles and
/// forms nested deeper than [`MAX_PDF_FORM_DEPTH`].
fn form_text<'d>(
    doc: &'d Document,
    name: &[u8],
    resources: &Resources<'d>,
    budget: &mut Budget,
    chain: &mut Vec<ObjectId>,
) -> Result<String, PageError> {
    let Some((id, stream)) = resources.form(doc, name) else {
        return Ok(String::new());
    };
    if chain.contains(&id) {
        // A form that draws itself: its text was read once already.
        return Ok(String::new());
    }
    if chain.len() > MAX_PDF_FORM_DEPTH {
        budget.lose(TOO_DEEP);
        return Ok(String::new());
    }
    let content = form_content(stream, budget)?;
    let inner = Resources::of_form(doc, stream, resources);
    chain.push(id);
    let text = stream_text(doc, &content, &inner, budget, chain);
    chain.pop();
    text
}

fn form_content(stream: &Stream, budget: &mut Budget) -> Result<Vec<u8>, PageError> {
    let content = match stream.get_plain_content_with_limit(budget.next_stream()) {
        Ok(content) => content,
        Err(err @ lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
            return Err(limit_error(err))
        }
        Err(_) => {
            budget.lose(UNREADABLE_FORM);
            return Ok(Vec::new());
        }
    };
    budget.spend_content(content.len())?;
    Ok(content)
}

/// Graphics state saved by `q` and restored by `Q`.
#[derive(Clone, Copy)]
struct Saved<'f, 'd> {
    cm: Matrix,
    font: &'f Font<'d>,
    font_size: f64,
    char_spacing: f64,
    leading: f64,
}

/// pypdf's `TextExtraction` state.
struct Extractor<'f, 'd> {
    fonts: &'f BTreeMap<&'f [u8], Font<'d>>,
    fallback: &'f Font<'static>,
    font: &'f Font<'d>,
    cm: Matrix,
    tm: Matrix,
    cm_prev: Matrix,
    tm_prev: Matrix,
    stack: Vec<Saved<'f, 'd>>,
    font_size: f64,
    char_spacing: f64,
    leading: f64,
    /// Half the space width of the current font (thousandths of an em).
    half_space: f64,
    /// The previous font's word gap, right after a `Tf` that ended a run.
    previous_font_space: Option<f64>,
    /// Width of the text shown since the last positioning operator (text space × 1000).
    str_widths: f64,
    /// Font size of the last text shown.
    str_height: f64,
    /// Axis index and baseline range of the line being extracted.
    line_span: Option<(usize, f64, f64)>,
    text: String,
    output: String,
}

static FALLBACK: std::sync::LazyLock<Font<'static>> = std::sync::LazyLock::new(Font::fallback);

impl<'f, 'd> Extractor<'f, 'd> {
    fn new(fonts: &'f BTreeMap<&'f [u8], Font<'d>>) -> Extractor<'f, 'd> {
        let fallback: &'f Font<'static> = &FALLBACK;
        Extractor {
            fonts,
            fallback,
            font: fallback,
            cm: IDENTITY,
            tm: IDENTITY,
            cm_prev: IDENTITY,
            tm_prev: IDENTITY,
            stack: Vec::new(),
            font_size: 12.0,
            char_spacing: 0.0,
            leading: 0.0,
            half_space: fallback.space_width / 2.0,
            previous_font_space: None,
            str_widths: 0.0,
            str_height: 0.0,
            line_span: None,
            text: String::new(),
            output: String::new(),
        }
    }

    fn finish(mut self) -> String {
        self.output.push_str(&self.text);
        self.output
    }

    fn flush(&mut self) {
        self.output.push_str(&self.text);
        self.text.clear();
    }

    /// Before a form's text: end the current run and start a new line.
    fn flush_for_form(&mut self) {
        self.flush();
        if !self.output.is_empty() && !self.output.ends_with('\n') {
            self.output.push('\n');
        }
    }

    fn operation(&mut self, op: &Operation) {
        let args = &op.operands;
        let num = |i: usize| args.get(i).and_then(number);
        match op.operator.as_str() {
            "BT" => {
                self.tm = IDENTITY;
                self.flush();
            }
            "ET" => self.flush(),
            "q" => self.save(),
            "Q" => self.restore(),
            "cm" => self.concat(args),
            "Tc" => self.char_spacing = num(0).unwrap_or(0.0),
            "TL" => self.leading = num(0).unwrap_or(0.0),
            "Tf" => self.set_font(args),
            "Td" => self.move_text(num(0).unwrap_or(0.0), num(1).unwrap_or(0.0)),
            "TD" => {
                if let Some(ty) = num(1) {
                    self.leading = -ty;
                }
                self.move_text(num(0).unwrap_or(0.0), num(1).unwrap_or(0.0));
            }
            "Tm" => self.set_matrix(args),
            "T*" => self.next_line(),
            "Tj" => self.show(args.first()),
            "'" => {
                self.next_line();
                self.show(args.first());
            }
            "\"" => {
                self.char_spacing = num(1).unwrap_or(self.char_spacing);
                self.next_line();
                self.show(args.get(2));
            }
            "TJ" => self.show_array(args.first()),
            _ => {}
        }
    }

    fn save(&mut self) {
        self.stack.push(Saved {
            cm: self.cm,
            font: self.font,
            font_size: self.font_size,
            char_spacing: self.char_spacing,
            leading: self.leading,
        });
    }

    fn restore(&mut self) {
        match self.stack.pop() {
            Some(saved) => {
                self.cm = saved.cm;
                self.font = saved.font;
                self.font_size = saved.font_size;
                self.char_spacing = saved.char_spacing;
                self.leading = saved.leading;
            }
            None => self.cm = IDENTITY,
        }
    }

    fn concat(&mut self, args: &[Object]) {
        self.flush();
        self.cm = match matrix(args) {
            Some(m) => mult(&m, &self.cm),
            None => IDENTITY,
        };
    }

    fn set_font(&mut self, args: &[Object]) {
        if !self.text.is_empty() {
            self.previous_font_space = Some(self.font_size * self.half_space);
            self.flush();
        }
        let name = args.first().and_then(|o| o.as_name().ok());
        self.font = match name.and_then(|n| self.fonts.get(n)) {
            Some(font) => font,
            None => self.fallback,
        };
        self.half_space = self.font.space_width / 2.0;
        if let Some(size) = args.get(1).and_then(number) {
            self.font_size = size;
        }
    }

    fn move_text(&mut self, tx: f64, ty: f64) {
        self.tm[4] += tx * self.tm[0] + ty * self.tm[2];
        self.tm[5] += tx * self.tm[1] + ty * self.tm[3];
        self.after_move();
    }

    fn set_matrix(&mut self, args: &[Object]) {
        self.tm = matrix(args).unwrap_or(IDENTITY);
        self.after_move();
    }

    fn next_line(&mut self) {
        self.tm[4] -= self.leading * self.tm[2];
        self.tm[5] -= self.leading * self.tm[3];
        self.after_move();
    }

    /// After a positioning operator: the text shown since the last one counts
    /// towards the gap check, then starts again from zero.
    fn after_move(&mut self) {
        let widths = self.str_widths / 1000.0;
        self.str_widths = 0.0;
        self.check_line_and_space(widths);
    }

    fn show(&mut self, operand: Option<&Object>) {
        let Some(Object::String(bytes, _)) = operand else {
            return;
        };
        self.previous_font_space = None;
        let (chars, width, codes) = self.font.decode(bytes);
        self.text.push_str(&chars);
        self.str_widths += width * self.font_size + 1000.0 * self.char_spacing * codes as f64;
        self.str_height = self.font_size;
        self.check_line_and_space(0.0);
    }

    fn show_array(&mut self, operand: Option<&Object>) {
        let Some(Object::Array(items)) = operand else {
            return;
        };
        // pypdf: a word gap in a TJ array is a kern of 95% of half a space or more.
        let gap = self.half_space * 0.95;
        for item in items {
            match item {
                Object::String(..) => self.show(Some(item)),
                other => {
                    if let Some(offset) = number(other) {
                        self.kern(offset, gap);
                    }
                }
            }
        }
    }

    /// A number in a TJ array moves the pen back by `offset` thousandths of an em.
    fn kern(&mut self, offset: f64, gap: f64) {
        let widths = self.str_widths - offset * self.font_size;
        let previous = if self.text.is_empty() {
            &self.output
        } else {
            &self.text
        };
        let ends_in_gap = previous.ends_with([' ', '\n']);
        if -offset >= gap && !previous.is_empty() && !ends_in_gap {
            self.text.push(' ');
            self.check_line_and_space(0.0);
        }
        self.str_widths = widths;
    }

    /// pypdf's `crlf_space_check`: a new line when the pen moved across lines,
    /// a space when it moved along the line past the text shown.
    fn check_line_and_space(&mut self, str_widths: f64) {
        let mut space = self.font_size * self.half_space;
        if let Some(previous) = self.previous_font_space {
            space = space.min(previous);
        }
        let space = space / 1000.0;
        let m_prev = mult(&self.tm_prev, &self.cm_prev);
        let m = mult(&self.tm, &self.cm);
        let upright = m[3].abs() > 1e-6;
        let (moved_height, moved_width, axis_index) = if upright {
            (m[5] - m_prev[5], m[4] - m_prev[4], 5)
        } else {
            (m[4] - m_prev[4], m[5] - m_prev[5], 4)
        };
        let scale_prev_x = m_prev[0].hypot(m_prev[1]);
        let scale_prev_y = m_prev[2].hypot(m_prev[3]);
        let scale_y = m[2].hypot(m[3]);
        let axis = m[axis_index];
        let distance = match self.line_span {
            Some((index, lower, upper)) if index == axis_index => {
                if (lower..=upper).contains(&axis) {
                    0.0
                } else {
                    (axis - lower).abs().min((axis - upper).abs())
                }
            }
            _ => moved_height.abs(),
        };
        let last = self
            .text
            .chars()
            .next_back()
            .or(self.output.chars().next_back());
        let threshold = 0.8 * (self.str_height * scale_prev_y).min(self.font_size * scale_y);
        if distance > threshold {
            if !matches!(last, None | Some('\n')) {
                self.text.push('\n');
                self.flush();
            }
            self.line_span = Some((axis_index, axis, axis));
        } else {
            let other_baseline = moved_height.abs() > threshold;
            let wide = moved_width >= (space + str_widths) * scale_prev_x;
            if (other_baseline || wide) && !matches!(last, None | Some(' ')) {
                self.text.push(' ');
            }
            self.line_span = match self.line_span {
                Some((index, lower, upper))
                    if index == axis_index && last != Some('\n') && last.is_some() =>
                {
                    Some((index, lower.min(axis), upper.max(axis)))
                }
                _ => Some((axis_index, axis, axis)),
            };
        }
        self.tm_prev = self.tm;
        self.cm_prev = self.cm;
    }
}

/// Six number operands as a matrix.
fn matrix(args: &[Object]) -> Option<Matrix> {
    let mut m = [0.0; 6];
    for (slot, arg) in m.iter_mut().zip(args) {
        *slot = number(arg)?;
    }
    (args.len() >= 6).then_some(m)
}
