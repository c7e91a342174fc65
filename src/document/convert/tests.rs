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

/// A small deterministic xorshift, so the mutation test needs no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Valid documents with random bytes flipped, cut or duplicated: every
/// converter gives text or an error, never a panic or a hang. Runs 300
/// mutations; `KGREP_FUZZ_ITERS=100000 cargo test --release mutated` runs more.
#[test]
fn mutated_documents_never_crash_a_converter() {
    use testdoc::*;
    let iterations: usize = std::env::var("KGREP_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let two_pages: &[&[&str]] = &[&["first page text"], &["second (page) text"]];
    let seeds: Vec<(Format, Vec<u8>)> = vec![
        (Format::Pdf, pdf(two_pages)),
        (Format::Pdf, encrypted_pdf(&pdf(two_pages), "")),
        (
            Format::Docx,
            docx(&[w_para(None, "para"), w_table(&[&["a", "b"]])]),
        ),
        (Format::Xlsx, xlsx(&[("S", &[&["x", "1"]])])),
        (Format::Pptx, pptx(&[(1, &["slide"], Some("notes"))])),
        (
            Format::Odf,
            odf(
                "application/vnd.oasis.opendocument.text",
                "<office:text><text:p>p</text:p></office:text>",
            ),
        ),
        (Format::Epub, epub(&[("a.xhtml", "<p>chapter</p>")], &[0])),
        (
            Format::Html,
            b"<html><body><p>x &amp; y</p><script>z</script></body></html>".to_vec(),
        ),
    ];
    let limits = Limits {
        timeout: std::time::Duration::from_secs(10),
        ..Limits::DEFAULT
    };
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for i in 0..iterations {
        let (format, seed) = &seeds[i % seeds.len()];
        let mut bytes = seed.clone();
        match rng.below(4) {
            0 => {
                for _ in 0..=rng.below(8) {
                    let at = rng.below(bytes.len());
                    bytes[at] = rng.next() as u8;
                }
            }
            1 => bytes.truncate(rng.below(bytes.len())),
            2 => {
                let at = rng.below(bytes.len());
                let len = rng.below(64).min(bytes.len() - at);
                let chunk = bytes[at..at + len].to_vec();
                bytes.splice(at..at, chunk);
            }
            _ => {
                let at = rng.below(bytes.len());
                bytes.drain(at..(at + rng.below(32)).min(bytes.len()));
            }
        }
        let got = convert(*format, bytes, &limits);
        assert!(
            !matches!(
                got,
                Err(ConvertError::Panicked(_)) | Err(ConvertError::TimedOut(_))
            ),
            "iteration {i}, {format:?}: {got:?}"
        );
    }
}

#[test]
fn encrypted_opendocument_and_drm_epub_are_reported() {
    let manifest = br#"<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>"#;
    let odt = testdoc::zip(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("content.xml", b"\x8f\x12 ciphertext"),
        ("META-INF/manifest.xml", manifest),
    ]);
    assert_eq!(
        convert(Format::Odf, odt, &Limits::DEFAULT),
        Err(ConvertError::Encrypted("OpenDocument file"))
    );
    let book = testdoc::epub(&[("c.xhtml", "<p>secret</p>")], &[0]);
    let with_encryption = |uri: &str| {
        let xml = format!(
            r#"<encryption><EncryptedData><CipherData><CipherReference URI="{uri}"/></CipherData></EncryptedData></encryption>"#
        );
        let mut entries = unzip(&book);
        entries.push(("META-INF/encryption.xml".to_string(), xml.into_bytes()));
        let refs: Vec<(&str, &[u8])> = entries
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        testdoc::zip(&refs)
    };
    assert_eq!(
        convert(
            Format::Epub,
            with_encryption("OEBPS/Text/c.xhtml"),
            &Limits::DEFAULT
        ),
        Err(ConvertError::Encrypted("EPUB book"))
    );
    // Obfuscated fonts leave the text readable.
    let got = convert(
        Format::Epub,
        with_encryption("OEBPS/Fonts/f.otf"),
        &Limits::DEFAULT,
    )
    .unwrap();
    assert_eq!(got.text, "secret\n");
}

/// The entries of a zip, for tests that add one.
fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut entry = zip.by_index(i).unwrap();
            let mut data = Vec::new();
            entry.read_to_end(&mut data).unwrap();
            (entry.name().unwrap().to_string(), data)
        })
        .collect()
}
