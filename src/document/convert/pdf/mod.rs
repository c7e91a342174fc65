//! PDF → text, page by page, laid out exactly as rlmgrep lays it out.
//!
//! rlmgrep (`ingest._read_pdf`) extracts each page with pypdf and builds:
//!
//! ```text
//! ===== Page 1 =====       one marker line per page, page 1 first
//! <the page's text>        split on "\n" (CRLF/CR normalised); an empty page gives one empty line
//! ===== Page 2 =====
//! …
//! ```
//!
//! joined with `\n`, every line tagged with its page (the `<TAB>page=N` suffix).
//! A page whose extraction fails is an empty page, not a failed document, and
//! a page read in part keeps what was read; either is listed in
//! `Converted::unread`, which the search reports like an unreadable file.
//! The text of one page comes from [`layout`], a port of pypdf's plain
//! extraction on top of lopdf's parser, so lines and line numbers agree with
//! rlmgrep on ordinary PDFs (the contract's `plain_pdf` goldens byte for byte).
//!
//! This module owns loading the PDF (lopdf, with its decompression bound),
//! refusing encrypted and oversized ones, and the page layout; it does not
//! know about files or warnings.

mod font;
mod layout;
mod resources;
mod type1;

use lopdf::{DecompressError, Document, LoadOptions};

use super::{ConvertError, Converted, Format, Limits};

/// The marker line that starts each page, as rlmgrep writes it.
pub(super) fn page_marker(page: u32) -> String {
    format!("===== Page {page} =====")
}

/// Converts a PDF held in memory.
pub(super) fn convert(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let doc = load(bytes, limits)?;
    let pages = doc.get_pages();
    if pages.len() > limits.max_pdf_pages {
        return Err(ConvertError::too_large(format!(
            "PDF of {} pages, over the {}-page limit",
            pages.len(),
            limits.max_pdf_pages
        )));
    }
    let mut budget = layout::Budget::new(limits);
    let mut out = PageLines::default();
    let mut any_text = false;
    let mut unread = Vec::new();
    for (page, id) in (1u32..).zip(pages.values()) {
        let text = match layout::page_text(&doc, *id, &mut budget) {
            Ok(text) => text,
            Err(layout::PageError::Limit(err)) => return Err(err),
            // pypdf raising on one page gives rlmgrep an empty page, not a
            // skipped file; kgrep also says so.
            Err(layout::PageError::Unreadable) => {
                unread.push(format!("page {page} could not be read"));
                String::new()
            }
        };
        for why in budget.take_lost() {
            unread.push(format!("page {page} was not read in full: {why}"));
        }
        any_text |= !text.trim().is_empty();
        out.push_page(page, &text, limits)?;
    }
    // lopdf rebuilds a damaged file's cross-references; when that still leaves
    // no text at all (a file cut short keeps its page tree but loses the
    // content streams), the file is reported, not searched as blank pages.
    if doc.xref_recovery.is_some() && !any_text {
        return Err(ConvertError::corrupt(
            Format::Pdf,
            "damaged or truncated, no text recoverable",
        ));
    }
    let mut converted = out.finish();
    converted.unread = unread;
    Ok(converted)
}

/// Loads the document, bounding every stream it inflates while loading.
fn load(bytes: &[u8], limits: &Limits) -> Result<Document, ConvertError> {
    let options = LoadOptions {
        max_decompressed_size: Some(limits.max_pdf_stream_bytes),
        ..LoadOptions::default()
    };
    let doc = Document::load_mem_with_options(bytes, options).map_err(load_error)?;
    // lopdf opens PDFs whose user password is empty (owner-password "protection")
    // on its own; anything else stays encrypted and has no readable text.
    if doc.is_encrypted() && !doc.was_encrypted() {
        return Err(ConvertError::Encrypted(Format::Pdf.name()));
    }
    Ok(doc)
}

fn load_error(err: lopdf::Error) -> ConvertError {
    match err {
        lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit }) => {
            ConvertError::too_large(format!("a PDF stream inflates past the {limit}-byte limit"))
        }
        lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => {
            ConvertError::Encrypted(Format::Pdf.name())
        }
        other => ConvertError::corrupt(Format::Pdf, other),
    }
}

/// rlmgrep's line list and page map, built page by page.
#[derive(Default)]
struct PageLines {
    text: String,
    pages: Vec<u32>,
}

impl PageLines {
    fn push_line(&mut self, line: &str, page: u32) {
        if !self.pages.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(line);
        self.pages.push(page);
    }

    fn push_page(&mut self, page: u32, text: &str, limits: &Limits) -> Result<(), ConvertError> {
        self.push_line(&page_marker(page), page);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        if text.is_empty() {
            self.push_line("", page);
        } else {
            for line in text.split('\n') {
                self.push_line(line, page);
            }
        }
        if self.text.len() > limits.max_text_bytes {
            return Err(ConvertError::too_large(format!(
                "PDF text over the {}-byte limit",
                limits.max_text_bytes
            )));
        }
        Ok(())
    }

    /// A PDF without pages is one empty line with no page, as in rlmgrep (whose
    /// page map then no longer matches the line count and is dropped).
    fn finish(self) -> Converted {
        let pages = (!self.pages.is_empty()).then_some(self.pages);
        Converted {
            text: self.text,
            pages,
            unread: Vec::new(),
            cut: None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::document::convert::{testdoc, MAX_PDF_FORM_DEPTH};

    fn text(pdf: &[u8]) -> Converted {
        convert(pdf, &Limits::DEFAULT).unwrap()
    }

    #[test]
    fn two_pages_laid_out_as_rlmgrep() {
        let got = text(&testdoc::pdf(testdoc::MANUAL));
        let want = "===== Page 1 =====\nDemo Manual\nChapter 1: Installation\nInstall the package with pip.\n\
                \n===== Page 2 =====\nChapter 2: Database\nThe database pool size defaults to five.\n\
                Retries back off exponentially.\n";
        assert_eq!(got.text, want);
        assert_eq!(got.pages, Some(vec![1, 1, 1, 1, 1, 2, 2, 2, 2, 2]));
    }

    #[test]
    fn the_contract_fixture_pdf_matches_the_goldens() {
        // The same bytes make_fixture.py writes, if python3 and the contract are here.
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/rlmgrep-contract/make_fixture.py"
        );
        let program = "import runpy,sys; m=runpy.run_path(sys.argv[1]); \
                   sys.stdout.buffer.write(m['_pdf_bytes'](m['MANUAL_PDF_PAGES']))";
        let Ok(out) = std::process::Command::new("python3")
            .args(["-c", program, script])
            .output()
        else {
            return;
        };
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = text(&out.stdout);
        let lines: Vec<&str> = got.text.split('\n').collect();
        // plain_pdf / pdf_page_boundary: lines 1, 3, 6, 8 and 10 with their pages.
        assert_eq!(lines[0], "===== Page 1 =====");
        assert_eq!(lines[2], "Chapter 1: Installation");
        assert_eq!(lines[4], "");
        assert_eq!(lines[5], "===== Page 2 =====");
        assert_eq!(lines[7], "The database pool size defaults to five.");
        assert_eq!(lines[9], "");
        assert_eq!(lines.len(), 10);
        let pages = got.pages.unwrap();
        assert_eq!((pages[4], pages[5], pages[9]), (1, 2, 2));
    }

    #[test]
    fn words_placed_apart_get_a_space_and_lines_moved_down_a_newline() {
        let content = "BT /F1 10 Tf 72 700 Td (Hello) Tj 40 0 Td (world) Tj \
                   0 -14 Td (next) Tj ET"
            .to_string();
        let got = text(&testdoc::pdf_from_contents(&[content]));
        assert_eq!(got.text, "===== Page 1 =====\nHello world\nnext");
    }

    #[test]
    fn tj_kerning_wider_than_half_a_space_is_a_word_gap() {
        let content = "BT /F1 10 Tf 72 700 Td [(kern)-20(ing)-400(gap)] TJ ET".to_string();
        let got = text(&testdoc::pdf_from_contents(&[content]));
        assert_eq!(got.text, "===== Page 1 =====\nkerning gap");
    }

    #[test]
    fn separate_text_blocks_on_separate_lines() {
        let content = "BT /F1 12 Tf 72 700 Td (first) Tj ET BT /F1 12 Tf 72 650 Td (second) Tj ET \
                   BT /F1 12 Tf 300 650 Td (same line) Tj ET"
            .to_string();
        let got = text(&testdoc::pdf_from_contents(&[content]));
        assert_eq!(got.text, "===== Page 1 =====\nfirst\nsecond same line");
    }

    #[test]
    fn a_page_without_text_is_one_empty_line() {
        let got = text(&testdoc::pdf_from_contents(
            &["0 0 m 10 10 l S".to_string()],
        ));
        assert_eq!(got.text, "===== Page 1 =====\n");
        assert_eq!(got.pages, Some(vec![1, 1]));
    }

    /// A one-page PDF (Helvetica as /F1) whose page draws `content` and whose
    /// object 6 is a form XObject (`form_dict` between `/Form` and `/Length`)
    /// drawing `form`.
    fn form_pdf(page: &[u8], content: &str, form_dict: &str, form: &str) -> Vec<u8> {
        testdoc::assemble_pdf(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
            page.to_vec(),
            format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len() + 1)
                .into_bytes(),
            format!(
                "<< /Type /XObject /Subtype /Form {form_dict} /Length {} >>\nstream\n{form}\nendstream",
                form.len() + 1
            )
            .into_bytes(),
        ])
    }

    #[test]
    fn text_inside_a_form_xobject_is_found() {
        let page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
                 /Resources << /Font << /F1 3 0 R >> /XObject << /X1 6 0 R >> >> /Contents 5 0 R >>";
        let content = "BT /F1 12 Tf 72 700 Td (before) Tj ET /X1 Do /X1 Do";
        let form = "BT /F1 12 Tf 10 10 Td (in the form) Tj ET";
        let got = text(&form_pdf(page, content, "/BBox [0 0 100 100]", form));
        assert_eq!(
            got.text,
            "===== Page 1 =====\nbefore\nin the form\nin the form"
        );
    }

    #[test]
    fn a_form_that_draws_itself_stops() {
        let page = b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> /XObject << /X1 6 0 R >> >> /Contents 5 0 R >>";
        let content = "/X1 Do";
        let form = "BT /F1 12 Tf (loop) Tj ET /X1 Do";
        let got = text(&form_pdf(
            page,
            content,
            "/Resources << /Font << /F1 3 0 R >> /XObject << /X1 6 0 R >> >>",
            form,
        ));
        assert_eq!(got.text, "===== Page 1 =====\nloop\n");
    }

    #[test]
    fn forms_nested_deeper_than_followed_lose_text_and_say_so() {
        // Form k (object 5 + k) draws form k + 1; the last one shows text.
        let chain = |forms: usize| {
            let mut objects = vec![
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec(),
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
                b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> \
                  /XObject << /X 6 0 R >> >> /Contents 5 0 R >>"
                    .to_vec(),
                b"<< /Length 6 >>\nstream\n/X Do\nendstream".to_vec(),
            ];
            for k in 0..forms {
                let (resources, body) = if k + 1 < forms {
                    (
                        format!("/XObject << /X {} 0 R >>", 7 + k),
                        "/X Do".to_string(),
                    )
                } else {
                    (String::new(), "BT /F1 12 Tf (deep) Tj ET".to_string())
                };
                objects.push(
                    format!(
                        "<< /Type /XObject /Subtype /Form /Resources << /Font << /F1 3 0 R >> \
                         {resources} >> /Length {} >>\nstream\n{body}\nendstream",
                        body.len() + 1
                    )
                    .into_bytes(),
                );
            }
            text(&testdoc::assemble_pdf(&objects))
        };
        let shallow = chain(MAX_PDF_FORM_DEPTH);
        assert_eq!(shallow.text, "===== Page 1 =====\ndeep");
        assert!(shallow.unread.is_empty());
        let deep = chain(MAX_PDF_FORM_DEPTH + 2);
        assert_eq!(deep.text, "===== Page 1 =====\n");
        assert_eq!(
            deep.unread,
            [
                "page 1 was not read in full: it nests forms deeper than kgrep follows; \
              their text is missing"
            ]
        );
    }

    #[test]
    fn a_content_stream_that_stops_parsing_says_so() {
        let nested = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
        let content = format!("BT /F1 12 Tf (kept) Tj ET {nested} pop BT /F1 12 Tf (lost) Tj ET");
        let got = text(&testdoc::pdf_from_contents(&[content]));
        assert_eq!(got.text, "===== Page 1 =====\nkept");
        assert_eq!(got.unread.len(), 1);
        assert!(got.unread[0].starts_with("page 1 was not read in full: its content stops"));
        let whole = text(&testdoc::pdf(&[&["all of it"]]));
        assert!(whole.unread.is_empty());
    }

    #[test]
    fn encrypted_pdf_is_reported() {
        let pdf = testdoc::encrypted_pdf(&testdoc::pdf(testdoc::MANUAL), "secret");
        assert_eq!(
            convert(&pdf, &Limits::DEFAULT),
            Err(ConvertError::Encrypted("PDF"))
        );
    }

    #[test]
    fn owner_password_only_pdf_is_read() {
        let pdf = testdoc::encrypted_pdf(&testdoc::pdf(testdoc::MANUAL), "");
        let got = text(&pdf);
        assert!(
            got.text
                .contains("The database pool size defaults to five."),
            "{}",
            got.text
        );
    }

    #[test]
    fn truncated_and_garbage_pdfs_are_errors() {
        let pdf = testdoc::pdf(testdoc::MANUAL);
        for cut in [10, pdf.len() / 3] {
            match convert(&pdf[..cut], &Limits::DEFAULT) {
                Err(ConvertError::Corrupt { format: "PDF", .. }) => {}
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
        // Cut after the first page's content: lopdf repairs it, and what it can
        // read is searched.
        let cut = pdf.windows(9).position(|w| w == b"endstream").unwrap() + 20;
        let got = convert(&pdf[..cut], &Limits::DEFAULT).unwrap();
        assert!(
            got.text.contains("Install the package with pip."),
            "{}",
            got.text
        );
        assert!(matches!(
            convert(b"not a pdf at all", &Limits::DEFAULT),
            Err(ConvertError::Corrupt { .. })
        ));
    }

    #[test]
    fn too_many_pages_is_too_large() {
        let limits = Limits {
            max_pdf_pages: 1,
            ..Limits::DEFAULT
        };
        let err = convert(&testdoc::pdf(testdoc::MANUAL), &limits).unwrap_err();
        assert_eq!(err.to_string(), "PDF of 2 pages, over the 1-page limit");
    }

    #[test]
    fn a_content_stream_that_inflates_too_far_is_too_large() {
        let big = format!("BT /F1 12 Tf ({}) Tj ET", "a".repeat(200_000));
        let limits = Limits {
            max_pdf_stream_bytes: 100_000,
            ..Limits::DEFAULT
        };
        let err = convert(&testdoc::pdf_from_contents(&[big]), &limits).unwrap_err();
        assert!(matches!(err, ConvertError::TooLarge(_)), "{err}");
    }

    #[test]
    fn text_over_the_limit_is_too_large() {
        let limits = Limits {
            max_text_bytes: 40,
            ..Limits::DEFAULT
        };
        let err = convert(&testdoc::pdf(testdoc::MANUAL), &limits).unwrap_err();
        assert!(matches!(err, ConvertError::TooLarge(_)), "{err}");
    }

    #[test]
    fn page_markers() {
        assert_eq!(page_marker(12), "===== Page 12 =====");
    }

    #[test]
    fn a_type1_font_program_s_own_encoding_is_used() {
        // Codes 1 and 2 mean a bullet and a period in this font's program, as in
        // TeX's symbol fonts; StandardEncoding has nothing there.
        let program = "%!PS-AdobeFont-1.0: CMSY10\n/Encoding 256 array\n\
                   0 1 255 {1 index exch /.notdef put} for\n\
                   dup 1 /bullet put\ndup 2 /period put\ndup 3 /notaglyphname put\n\
                   readonly def\ncurrentfile eexec\n";
        let content = "BT /F1 12 Tf 72 700 Td (\\001 item\\002) Tj ET";
        let objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /CMSY10 /FontDescriptor 7 0 R >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"
            .to_vec(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len() + 1
        )
        .into_bytes(),
        format!(
            "<< /Length {} /Length1 {} >>\nstream\n{program}\nendstream",
            program.len() + 1,
            program.len()
        )
        .into_bytes(),
        b"<< /Type /FontDescriptor /FontName /CMSY10 /Flags 4 /FontFile 6 0 R >>".to_vec(),
    ];
        let got = text(&testdoc::assemble_pdf(&objects));
        assert_eq!(got.text, "===== Page 1 =====\n\u{2022} item.");
    }
}
