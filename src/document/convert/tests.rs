#![allow(clippy::unwrap_used)]

use std::path::Path;

use super::*;

#[test]
fn formats_by_extension() {
    let cases = [
        ("a.pdf", Some(Format::Pdf)),
        ("A.PDF", Some(Format::Pdf)),
        ("r.docx", Some(Format::Docx)),
        ("s.xlsx", Some(Format::Xlsx)),
        ("d.pptx", Some(Format::Pptx)),
        ("t.odt", Some(Format::Odf)),
        ("t.ods", Some(Format::Odf)),
        ("t.odp", Some(Format::Odf)),
        ("b.epub", Some(Format::Epub)),
        ("i.html", Some(Format::Html)),
        ("i.htm", Some(Format::Html)),
        ("old.doc", None),
        ("main.rs", None),
        ("pdf", None),
    ];
    for (name, want) in cases {
        assert_eq!(Format::of_path(Path::new(name)), want, "{name}");
    }
}

#[test]
fn every_format_converts_through_the_guard() {
    use testdoc::*;
    let docs: Vec<(Format, Vec<u8>, &str)> = vec![
        (Format::Pdf, pdf(&[&["alpha page"]]), "alpha page"),
        (
            Format::Docx,
            docx(&[w_para(None, "beta para")]),
            "beta para",
        ),
        (
            Format::Pptx,
            pptx(&[(1, &["gamma slide"], None)]),
            "gamma slide",
        ),
        (
            Format::Xlsx,
            xlsx(&[("S", &[&["delta cell"]])]),
            "delta cell",
        ),
        (
            Format::Odf,
            odf(
                "application/vnd.oasis.opendocument.text",
                "<office:text><text:p>epsilon</text:p></office:text>",
            ),
            "epsilon",
        ),
        (
            Format::Epub,
            epub(&[("c.xhtml", "<p>zeta</p>")], &[0]),
            "zeta",
        ),
        (Format::Html, b"<p>eta</p>".to_vec(), "eta"),
    ];
    for (format, bytes, needle) in docs {
        let got = convert(format, bytes, &Limits::DEFAULT).unwrap();
        assert!(got.text.contains(needle), "{format:?}: {:?}", got.text);
        assert_eq!(got.pages.is_some(), format == Format::Pdf);
    }
}

#[test]
fn documents_over_the_size_limit_are_refused_unread() {
    let limits = Limits {
        max_document_bytes: 10,
        ..Limits::DEFAULT
    };
    let err = convert(Format::Docx, vec![0; 11], &limits).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Word document of 11 bytes, over the 10-byte limit for documents"
    );
}

/// Hostile bytes of every kind through every converter: an error or text,
/// never a panic (the guard would turn one into `Panicked`, which fails here).
#[test]
fn garbage_never_crashes_a_converter() {
    let seeds: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"PK\x03\x04".to_vec(),
        b"%PDF-1.7\n".to_vec(),
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj trailer << /Root 1 0 R >>"
            .to_vec(),
        testdoc::zip(&[("word/document.xml", b"<w:p><w:t>unclosed")]),
        testdoc::zip(&[("content.xml", b"\xff\xfe<<<>>>&&&")]),
        testdoc::zip(&[("META-INF/container.xml", b"<rootfile full-path='../../x'/>")]),
        (0u8..=255).cycle().take(4096).collect(),
    ];
    let formats = [
        Format::Pdf,
        Format::Docx,
        Format::Pptx,
        Format::Xlsx,
        Format::Odf,
        Format::Epub,
        Format::Html,
    ];
    for seed in &seeds {
        for format in formats {
            let got = convert(format, seed.clone(), &Limits::DEFAULT);
            assert!(
                !matches!(
                    got,
                    Err(ConvertError::Panicked(_)) | Err(ConvertError::TimedOut(_))
                ),
                "{format:?} on {:?}: {got:?}",
                String::from_utf8_lossy(&seed[..seed.len().min(40)])
            );
        }
    }
}

#[test]
fn errors_are_one_line() {
    let err = ConvertError::corrupt(Format::Pdf, "first\nsecond");
    assert_eq!(err.to_string(), "unreadable PDF: first");
    assert_eq!(
        ConvertError::TimedOut(CONVERT_TIMEOUT).to_string(),
        "gave up after 30 s converting it"
    );
}
