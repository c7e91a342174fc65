//! Office Open XML: Word (`.docx`), PowerPoint (`.pptx`) and Excel (`.xlsx`).
//!
//! - Word: the body's paragraphs and headings one per line; a table row is one
//!   line with its cells separated by tabs.
//! - PowerPoint: slides in presentation order (the order of `sldIdLst`, not of
//!   the file names), each after a `===== Slide N =====` line, with its speaker
//!   notes after the slide's own text.
//! - Excel: sheets in workbook order, each after `===== Sheet: NAME =====`, one
//!   line per row, cells separated by tabs; shared strings, inline strings,
//!   booleans and cached formula results are resolved, formulas themselves not.
//!
//! Parts are found through the package's relationships (`_rels/*.rels`), so
//! renamed parts work. Text comes from `w:t`/`a:t`/`t` runs only: deleted
//! revisions and field codes are not searched.

use std::collections::HashMap;

use super::archive::{folder, resolve, Archive};
use super::text::TextOut;
use super::xml::{attr, local, walk, Node};
use super::{ConvertError, Converted, Format, Limits};

/// Relationship types (the part after the last `/`) kgrep follows.
const REL_OFFICE_DOCUMENT: &str = "officeDocument";
const REL_NOTES: &str = "notesSlide";

pub(super) fn docx(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let mut zip = Archive::open(bytes, Format::Docx, limits)?;
    let main = main_part(&mut zip, Format::Docx, "word/document.xml")?;
    let xml = required(&mut zip, &main, Format::Docx)?;
    let mut out = TextOut::new(Format::Docx, limits.max_zip_text_bytes);
    let done = paragraphs(&xml, Format::Docx, &mut out);
    out.finish_after(done)
}

pub(super) fn pptx(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let mut zip = Archive::open(bytes, Format::Pptx, limits)?;
    let main = main_part(&mut zip, Format::Pptx, "ppt/presentation.xml")?;
    let presentation = required(&mut zip, &main, Format::Pptx)?;
    let rels = relationships(&mut zip, &main)?;
    let slides = ids_in_order(&presentation, Format::Pptx, "sldId")?;
    let mut out = TextOut::new(Format::Pptx, limits.max_zip_text_bytes);
    let write = |out: &mut TextOut| -> Result<(), ConvertError> {
        for (n, rid) in (1..).zip(slides) {
            out.marker(&format!("Slide {n}"))?;
            let Some(slide) = rels.get(&rid).map(|r| r.target.clone()) else {
                continue;
            };
            if let Some(xml) = zip.text(&slide)? {
                paragraphs(&xml, Format::Pptx, out)?;
            }
            let notes = relationships(&mut zip, &slide)?
                .into_values()
                .find(|r| r.kind == REL_NOTES);
            if let Some(xml) = notes.map(|r| zip.text(&r.target)).transpose()?.flatten() {
                paragraphs(&xml, Format::Pptx, out)?;
            }
        }
        Ok(())
    };
    let done = write(&mut out);
    out.finish_after(done)
}

pub(super) fn xlsx(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let mut zip = Archive::open(bytes, Format::Xlsx, limits)?;
    let main = main_part(&mut zip, Format::Xlsx, "xl/workbook.xml")?;
    let workbook = required(&mut zip, &main, Format::Xlsx)?;
    let rels = relationships(&mut zip, &main)?;
    let shared = match rels.values().find(|r| r.kind == "sharedStrings") {
        Some(r) => zip.text(&r.target)?,
        None => zip.text("xl/sharedStrings.xml")?,
    };
    let shared = shared
        .map(|xml| shared_strings(&xml))
        .transpose()?
        .unwrap_or_default();
    let sheets = sheets(&workbook)?;
    let mut out = TextOut::new(Format::Xlsx, limits.max_zip_text_bytes);
    let write = |out: &mut TextOut| -> Result<(), ConvertError> {
        for (name, rid) in sheets {
            out.marker(&format!("Sheet: {name}"))?;
            let Some(target) = rels.get(&rid).map(|r| r.target.clone()) else {
                continue;
            };
            if let Some(xml) = zip.text(&target)? {
                sheet_rows(&xml, &shared, out)?;
            }
        }
        Ok(())
    };
    let done = write(&mut out);
    out.finish_after(done)
}

/// One relationship of a part: where it points and what kind it is.
#[derive(Clone, Debug)]
struct Rel {
    target: String,
    /// The last segment of the relationship type URI (`slide`, `notesSlide`…).
    kind: String,
}

/// The relationships of `part` (from `folder/_rels/name.rels`), by id, with
/// targets resolved to archive paths.
fn relationships(zip: &mut Archive<'_>, part: &str) -> Result<HashMap<String, Rel>, ConvertError> {
    let base = folder(part);
    let name = &part[base.len()..];
    let Some(xml) = zip.text(&format!("{base}_rels/{name}.rels"))? else {
        return Ok(HashMap::new());
    };
    let mut rels = HashMap::new();
    walk(&xml, Format::Docx, |node| {
        if let Node::Open { el, .. } = node {
            if local(el) == "Relationship" && attr(el, "TargetMode").as_deref() != Some("External")
            {
                if let (Some(id), Some(target)) = (attr(el, "Id"), attr(el, "Target")) {
                    let kind = attr(el, "Type").unwrap_or_default();
                    let kind = kind.rsplit('/').next().unwrap_or("").to_string();
                    rels.insert(
                        id,
                        Rel {
                            target: resolve(base, &target),
                            kind,
                        },
                    );
                }
            }
        }
        Ok(())
    })?;
    Ok(rels)
}

/// The package's main part (`_rels/.rels`), or the usual name when unlisted.
fn main_part(zip: &mut Archive<'_>, format: Format, usual: &str) -> Result<String, ConvertError> {
    let rels = relationships(zip, "")?;
    let listed = rels
        .into_values()
        .find(|r| r.kind == REL_OFFICE_DOCUMENT && zip.has(&r.target));
    let part = listed.map_or_else(|| usual.to_string(), |r| r.target);
    if zip.has(&part) {
        Ok(part)
    } else {
        Err(ConvertError::corrupt(
            format,
            format!("no {usual} in the package"),
        ))
    }
}

fn required(zip: &mut Archive<'_>, part: &str, format: Format) -> Result<String, ConvertError> {
    zip.text(part)?
        .ok_or_else(|| ConvertError::corrupt(format, format!("no {part} in the package")))
}

/// The text of WordprocessingML or DrawingML: paragraphs (`p`) one per line,
/// runs' text (`t`), tabs and breaks inside runs (`r`), table rows (`tr`) one
/// per line with cells (`tc`) tab-separated.
fn paragraphs(xml: &str, format: Format, out: &mut TextOut) -> Result<(), ConvertError> {
    let mut in_text = false;
    let mut run_depth = 0usize;
    let mut row_depth = 0usize;
    walk(xml, format, |node| {
        match node {
            Node::Open { el, empty } => match (local(el), empty) {
                ("t", false) => in_text = true,
                ("r", false) => run_depth += 1,
                ("tr", false) => row_depth += 1,
                ("tab", _) if run_depth > 0 => out.push('\t')?,
                ("br" | "cr", _) if row_depth > 0 => out.separate(' ')?,
                ("br" | "cr", _) => out.end_line()?,
                ("noBreakHyphen", _) => out.push('-')?,
                _ => {}
            },
            Node::Close(name) => match name {
                "t" => in_text = false,
                "r" => run_depth = run_depth.saturating_sub(1),
                "p" if row_depth > 0 => out.separate(' ')?,
                "p" => out.end_line()?,
                "tc" => out.separate('\t')?,
                "tr" => {
                    row_depth = row_depth.saturating_sub(1);
                    out.end_row()?;
                }
                _ => {}
            },
            Node::Text(text) if in_text => out.push_str(&text)?,
            Node::Text(_) => {}
        }
        Ok(())
    })
}

/// The relationship ids of the `element`s (`sldId`) of a part, in order.
fn ids_in_order(xml: &str, format: Format, element: &str) -> Result<Vec<String>, ConvertError> {
    let mut ids = Vec::new();
    walk(xml, format, |node| {
        if let Node::Open { el, .. } = node {
            if local(el) == element {
                ids.extend(attr(el, "r:id"));
            }
        }
        Ok(())
    })?;
    Ok(ids)
}

/// `(name, relationship id)` of each sheet, in workbook order.
fn sheets(workbook: &str) -> Result<Vec<(String, String)>, ConvertError> {
    let mut sheets = Vec::new();
    walk(workbook, Format::Xlsx, |node| {
        if let Node::Open { el, .. } = node {
            if local(el) == "sheet" {
                if let (Some(name), Some(rid)) = (attr(el, "name"), attr(el, "r:id")) {
                    sheets.push((name, rid));
                }
            }
        }
        Ok(())
    })?;
    Ok(sheets)
}

/// The shared-string table: each `si`'s text runs joined, phonetic hints (`rPh`) left out.
fn shared_strings(xml: &str) -> Result<Vec<String>, ConvertError> {
    let mut strings = Vec::new();
    let mut current = String::new();
    let (mut in_text, mut in_phonetic) = (false, false);
    walk(xml, Format::Xlsx, |node| {
        match node {
            Node::Open { el, empty: false } => match local(el) {
                "si" => current.clear(),
                "t" => in_text = true,
                "rPh" => in_phonetic = true,
                _ => {}
            },
            Node::Open { el, empty: true } if local(el) == "si" => strings.push(String::new()),
            Node::Close("si") => strings.push(std::mem::take(&mut current)),
            Node::Close("t") => in_text = false,
            Node::Close("rPh") => in_phonetic = false,
            Node::Text(text) if in_text && !in_phonetic => current.push_str(&text),
            _ => {}
        }
        Ok(())
    })?;
    Ok(strings)
}

/// A worksheet's rows: one line each, non-empty cells tab-separated.
fn sheet_rows(xml: &str, shared: &[String], out: &mut TextOut) -> Result<(), ConvertError> {
    let mut cell_type = String::new();
    let mut value = String::new();
    let mut in_value = false;
    walk(xml, Format::Xlsx, |node| {
        match node {
            Node::Open { el, empty: false } => match local(el) {
                "c" => {
                    cell_type = attr(el, "t").unwrap_or_default();
                    value.clear();
                }
                "v" | "t" => in_value = true,
                _ => {}
            },
            Node::Close("v" | "t") => in_value = false,
            Node::Close("c") => {
                let shown = cell_text(&cell_type, &value, shared);
                if !shown.is_empty() {
                    out.separate('\t')?;
                    out.push_str(&shown)?;
                }
            }
            Node::Close("row") => out.end_row()?,
            Node::Text(text) if in_value => value.push_str(&text),
            _ => {}
        }
        Ok(())
    })
}

/// What a cell shows, from its type attribute and its `v` (or inline `t`) text.
fn cell_text(cell_type: &str, value: &str, shared: &[String]) -> String {
    match cell_type {
        "s" => value
            .trim()
            .parse::<usize>()
            .ok()
            .and_then(|i| shared.get(i))
            .cloned()
            .unwrap_or_default(),
        "b" => match value.trim() {
            "1" => "TRUE".to_string(),
            "0" => "FALSE".to_string(),
            other => other.to_string(),
        },
        _ => value.to_string(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
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
}
