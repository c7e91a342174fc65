#![allow(clippy::unwrap_used)]

use super::*;
use crate::document::convert::testdoc::{self, w_para, w_table};

fn limits() -> Limits {
    Limits::DEFAULT
}

#[test]
fn docx_paragraphs_headings_and_table_rows() {
    let bytes = testdoc::docx(&[
        w_para(Some("Heading1"), "Quarterly report"),
        w_para(None, "Revenue grew & costs fell."),
        w_table(&[&["Region", "Revenue"], &["North", "1200"], &["South", ""]]),
        w_para(None, "The end."),
    ]);
    let got = docx(&bytes, &limits()).unwrap();
    assert_eq!(
        got.text,
        "Quarterly report\nRevenue grew & costs fell.\nRegion\tRevenue\nNorth\t1200\nSouth\nThe end.\n"
    );
    assert_eq!(got.pages, None);
}

#[test]
fn docx_tabs_breaks_and_deleted_text() {
    let body = r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>
        <w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t></w:r>
        <w:del><w:r><w:delText>removed</w:delText></w:r></w:del>
        <w:r><w:instrText> PAGE </w:instrText></w:r></w:p>"#;
    let bytes = testdoc::docx(&[body.to_string()]);
    assert_eq!(docx(&bytes, &limits()).unwrap().text, "a\tb\nc\n");
}

#[test]
fn pptx_slides_in_presentation_order_with_notes() {
    let bytes = testdoc::pptx(&[
        (2, &["Welcome", "Agenda"], None),
        (10, &["Architecture"], Some("Mention the cache")),
        (1, &["Questions?"], None),
    ]);
    let got = pptx(&bytes, &limits()).unwrap();
    assert_eq!(
        got.text,
        "===== Slide 1 =====\nWelcome\nAgenda\n===== Slide 2 =====\nArchitecture\nMention the cache\n\
         ===== Slide 3 =====\nQuestions?\n"
    );
}

#[test]
fn xlsx_sheets_with_shared_strings_and_numbers() {
    let bytes = testdoc::xlsx(&[
        (
            "Sales",
            &[&["Region", "Q1", "Q2"], &["North", "1200", "1350.5"]],
        ),
        (
            "Notes",
            &[&["Region", "owner: Dana"], &[], &["", "", "late"]],
        ),
    ]);
    let got = xlsx(&bytes, &limits()).unwrap();
    assert_eq!(
        got.text,
        "===== Sheet: Sales =====\nRegion\tQ1\tQ2\nNorth\t1200\t1350.5\n\
         ===== Sheet: Notes =====\nRegion\towner: Dana\nlate\n"
    );
}

#[test]
fn xlsx_cell_types() {
    let shared = vec!["zero".to_string(), "one".to_string()];
    assert_eq!(cell_text("s", "1", &shared), "one");
    assert_eq!(cell_text("s", "7", &shared), "");
    assert_eq!(cell_text("b", "1", &shared), "TRUE");
    assert_eq!(cell_text("str", "=A1", &shared), "=A1");
    assert_eq!(cell_text("", "3.5", &shared), "3.5");
}

#[test]
fn xlsx_inline_strings_and_rich_shared_strings() {
    let strings = shared_strings(
        r#"<sst><si><r><t>rich </t></r><r><t>text</t></r><rPh><t>ruby</t></rPh></si><si/><si><t>plain</t></si></sst>"#,
    )
    .unwrap();
    assert_eq!(strings, ["rich text", "", "plain"]);
    let mut out = TextOut::new(Format::Xlsx, 1 << 20);
    sheet_rows(
        r#"<worksheet><sheetData><row><c t="inlineStr"><is><t>inline</t></is></c><c t="s"><v>2</v></c><c><f>SUM(A1)</f><v>4</v></c></row></sheetData></worksheet>"#,
        &strings,
        &mut out,
    )
    .unwrap();
    assert_eq!(out.finish(), "inline\tplain\t4\n");
}

#[test]
fn not_a_zip_is_corrupt() {
    let err = docx(b"this is not a zip file", &limits()).unwrap_err();
    assert!(
        matches!(
            err,
            ConvertError::Corrupt {
                format: "Word document",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_zip_without_the_main_part_is_corrupt() {
    let bytes = testdoc::zip(&[("hello.txt", b"hi")]);
    let err = xlsx(&bytes, &limits()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unreadable Excel workbook: no xl/workbook.xml in the package"
    );
}

#[test]
fn an_ole_container_is_an_encrypted_office_file() {
    let mut bytes = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1".to_vec();
    bytes.extend_from_slice(&[0; 512]);
    assert_eq!(
        docx(&bytes, &limits()),
        Err(ConvertError::Encrypted("Word document"))
    );
}

#[test]
fn a_zip_bomb_entry_is_too_large() {
    let bytes = testdoc::zip_bomb("word/document.xml", 5 << 20);
    assert!(bytes.len() < 100_000, "{}", bytes.len());
    let limits = Limits {
        max_zip_entry_bytes: 1 << 20,
        ..Limits::DEFAULT
    };
    let err = docx(&bytes, &limits).unwrap_err();
    assert!(err.to_string().contains("zip bomb"), "{err}");
}

#[test]
fn the_archive_total_is_bounded_too() {
    let bytes = testdoc::xlsx(&[("A", &[&["x"; 50]]), ("B", &[&["y"; 50]])]);
    let limits = Limits {
        max_zip_total_bytes: 1_500,
        ..Limits::DEFAULT
    };
    let err = xlsx(&bytes, &limits).unwrap_err();
    assert!(matches!(err, ConvertError::TooLarge(_)), "{err}");
}

#[test]
fn too_many_entries_is_too_large() {
    let names: Vec<String> = (0..30).map(|i| format!("f{i}")).collect();
    let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    let limits = Limits {
        max_zip_entries: 20,
        ..Limits::DEFAULT
    };
    let err = pptx(&testdoc::zip(&entries), &limits).unwrap_err();
    assert!(err.to_string().contains("30 zip entries"), "{err}");
}

#[test]
fn a_truncated_package_is_corrupt() {
    let bytes = testdoc::docx(&[w_para(None, "hello")]);
    let err = docx(&bytes[..bytes.len() / 2], &limits()).unwrap_err();
    assert!(matches!(err, ConvertError::Corrupt { .. }), "{err}");
}
