//! Small documents built in code: the converters' unit tests, the CLI tests,
//! the fixture generator (`examples/make_documents.rs`) and the document
//! benchmark all build their PDFs, Office files, OpenDocument files and EPUBs
//! here, so every fixture is made by the project and none is downloaded.
//!
//! Self-contained on purpose (it uses only `zip`, `flate2` and `lopdf`, never
//! `crate::`): the example and the CLI tests include this file with `#[path]`.
//! Nothing here runs in kgrep itself.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// `make_fixture.py`'s MANUAL_PDF_PAGES: the pages of the contract's
/// `manual.pdf` (the fixture generator and the PDF tests build it from these).
pub(crate) const MANUAL: &[&[&str]] = &[
    &[
        "Demo Manual",
        "Chapter 1: Installation",
        "Install the package with pip.",
    ],
    &[
        "Chapter 2: Database",
        "The database pool size defaults to five.",
        "Retries back off exponentially.",
    ],
];

/// A zip archive of `(name, bytes)` entries, deflated (the first entry stored,
/// as ODF and EPUB want their `mimetype`).
pub(crate) fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (i, (name, bytes)) in entries.iter().enumerate() {
        let method = if i == 0 && *name == "mimetype" {
            CompressionMethod::Stored
        } else {
            CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .last_modified_time(zip::DateTime::default());
        out.start_file(*name, options).unwrap();
        out.write_all(bytes).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// A zip whose one entry `name` inflates to `size` zero bytes: a few hundred
/// KiB on disk per 100 MiB inflated.
pub(crate) fn zip_bomb(name: &str, size: usize) -> Vec<u8> {
    let mut out = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .large_file(size as u64 >= u32::MAX as u64)
        .last_modified_time(zip::DateTime::default());
    out.start_file(name, options).unwrap();
    let chunk = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        out.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    out.finish().unwrap().into_inner()
}

// ---------------------------------------------------------------------------
// PDF

fn pdf_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('(', "\\(")
        .replace(')', "\\)")
}

/// A minimal PDF: one Helvetica line per entry, one page per list, laid out
/// with `T*` like the rlmgrep contract's `make_fixture.py` (`_pdf_bytes`).
pub(crate) fn pdf(pages: &[&[&str]]) -> Vec<u8> {
    let contents: Vec<String> = pages
        .iter()
        .map(|lines| {
            let mut ops = vec!["BT", "/F1 12 Tf", "14 TL", "72 720 Td"]
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>();
            ops.extend(lines.iter().map(|l| format!("({}) Tj T*", pdf_escape(l))));
            ops.push("ET".into());
            ops.join("\n")
        })
        .collect();
    pdf_from_contents(&contents)
}

/// A PDF whose pages have the given raw content streams (Helvetica as `/F1`).
pub(crate) fn pdf_from_contents(contents: &[String]) -> Vec<u8> {
    let n = contents.len();
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ];
    for (i, content) in contents.iter().enumerate() {
        let stream = deflate(content.as_bytes());
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
                 /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                5 + 2 * i
            )
            .into_bytes(),
        );
        let mut body = format!(
            "<< /Length {} /Filter /FlateDecode >>\nstream\n",
            stream.len()
        )
        .into_bytes();
        body.extend_from_slice(&stream);
        body.extend_from_slice(b"\nendstream");
        objects.push(body);
    }
    assemble_pdf(&objects)
}

/// Numbers `objects` from 1 and writes header, bodies, xref table and trailer.
pub(crate) fn assemble_pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// `plain` encrypted (RC4, 128-bit) with a user password: unreadable without it.
pub(crate) fn encrypted_pdf(plain: &[u8], user_password: &str) -> Vec<u8> {
    use lopdf::{EncryptionState, EncryptionVersion, Permissions};
    let mut doc = lopdf::Document::load_mem(plain).unwrap();
    let id = lopdf::Object::String(b"kgrep-test-file-id".to_vec(), lopdf::StringFormat::Literal);
    doc.trailer
        .set("ID", lopdf::Object::Array(vec![id.clone(), id]));
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).unwrap();
    doc.encrypt(&state).unwrap();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

// ---------------------------------------------------------------------------
// Office Open XML

const XML_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#;
const NS_REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL_TYPE: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A `.rels` part: `(id, type, target)`.
fn rels(list: &[(&str, &str, &str)]) -> String {
    let items: String = list
        .iter()
        .map(|(id, kind, target)| {
            format!(r#"<Relationship Id="{id}" Type="{REL_TYPE}/{kind}" Target="{target}"/>"#)
        })
        .collect();
    format!(
        r#"{XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>"#
    )
}

/// A Word paragraph (with a heading style when `style` is given).
pub(crate) fn w_para(style: Option<&str>, text: &str) -> String {
    let props = style
        .map(|s| format!(r#"<w:pPr><w:pStyle w:val="{s}"/></w:pPr>"#))
        .unwrap_or_default();
    format!(
        r#"<w:p>{props}<w:r><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#,
        xml_escape(text)
    )
}

/// A Word table, one paragraph per cell.
pub(crate) fn w_table(rows: &[&[&str]]) -> String {
    let rows: String = rows
        .iter()
        .map(|cells| {
            let cells: String = cells
                .iter()
                .map(|c| format!("<w:tc><w:tcPr/>{}</w:tc>", w_para(None, c)))
                .collect();
            format!("<w:tr>{cells}</w:tr>")
        })
        .collect();
    format!("<w:tbl><w:tblPr/>{rows}</w:tbl>")
}

/// A `.docx` whose body is `blocks` (from [`w_para`] and [`w_table`]).
pub(crate) fn docx(blocks: &[String]) -> Vec<u8> {
    let document = format!(
        r#"{XML_HEAD}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="{NS_REL}"><w:body>{}<w:sectPr/></w:body></w:document>"#,
        blocks.concat()
    );
    zip(&[
        (
            "[Content_Types].xml",
            content_types("word/document.xml", "wordprocessingml.document.main").as_bytes(),
        ),
        (
            "_rels/.rels",
            rels(&[("rId1", "officeDocument", "word/document.xml")]).as_bytes(),
        ),
        ("word/document.xml", document.as_bytes()),
    ])
}

fn content_types(main: &str, kind: &str) -> String {
    format!(
        r#"{XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/{main}" ContentType="application/vnd.openxmlformats-officedocument.{kind}+xml"/></Types>"#
    )
}

/// An `.xlsx`: sheets of rows of cells; text cells go through the shared
/// string table, cells that parse as numbers are written as numbers.
pub(crate) fn xlsx(sheets: &[(&str, &[&[&str]])]) -> Vec<u8> {
    let mut shared: Vec<String> = Vec::new();
    let mut parts: Vec<(String, String)> = Vec::new();
    for (index, (_, rows)) in sheets.iter().enumerate() {
        let mut xml = String::new();
        for (r, cells) in rows.iter().enumerate() {
            xml.push_str(&format!(r#"<row r="{}">"#, r + 1));
            for (c, value) in cells.iter().enumerate() {
                let at = format!("{}{}", char::from(b'A' + c as u8), r + 1);
                if value.is_empty() {
                    continue;
                } else if value.parse::<f64>().is_ok() {
                    xml.push_str(&format!(r#"<c r="{at}"><v>{value}</v></c>"#));
                } else {
                    let i = shared.iter().position(|s| s == value).unwrap_or_else(|| {
                        shared.push(value.to_string());
                        shared.len() - 1
                    });
                    xml.push_str(&format!(r#"<c r="{at}" t="s"><v>{i}</v></c>"#));
                }
            }
            xml.push_str("</row>");
        }
        let sheet = format!(
            r#"{XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{xml}</sheetData></worksheet>"#
        );
        parts.push((format!("xl/worksheets/sheet{}.xml", index + 1), sheet));
    }
    let sheet_list: String = sheets
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            format!(
                r#"<sheet name="{}" sheetId="{}" r:id="rId{}"/>"#,
                xml_escape(name),
                i + 1,
                i + 1
            )
        })
        .collect();
    let workbook = format!(
        r#"{XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{NS_REL}"><sheets>{sheet_list}</sheets></workbook>"#
    );
    let mut workbook_rels: Vec<(String, &str, String)> = (0..sheets.len())
        .map(|i| {
            (
                format!("rId{}", i + 1),
                "worksheet",
                format!("worksheets/sheet{}.xml", i + 1),
            )
        })
        .collect();
    workbook_rels.push(("rIdS".into(), "sharedStrings", "sharedStrings.xml".into()));
    let workbook_rels: Vec<(&str, &str, &str)> = workbook_rels
        .iter()
        .map(|(a, b, c)| (a.as_str(), *b, c.as_str()))
        .collect();
    let strings: String = shared
        .iter()
        .map(|s| format!("<si><t>{}</t></si>", xml_escape(s)))
        .collect();
    let shared_xml = format!(
        r#"{XML_HEAD}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{0}" uniqueCount="{0}">{strings}</sst>"#,
        shared.len()
    );
    let types = content_types("xl/workbook.xml", "spreadsheetml.sheet.main");
    let root_rels = rels(&[("rId1", "officeDocument", "xl/workbook.xml")]);
    let wb_rels = rels(&workbook_rels);
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", root_rels.as_bytes()),
        ("xl/workbook.xml", workbook.as_bytes()),
        ("xl/_rels/workbook.xml.rels", wb_rels.as_bytes()),
        ("xl/sharedStrings.xml", shared_xml.as_bytes()),
    ];
    entries.extend(parts.iter().map(|(n, x)| (n.as_str(), x.as_bytes())));
    zip(&entries)
}

/// A `.pptx`: each slide is `(file number, paragraphs, notes)`; slides appear
/// in the given order, whatever their file numbers.
pub(crate) fn pptx(slides: &[(usize, &[&str], Option<&str>)]) -> Vec<u8> {
    let ns = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#;
    let body = |paragraphs: &[&str]| -> String {
        paragraphs
            .iter()
            .map(|t| {
                format!(
                    "<a:p><a:r><a:rPr lang=\"en-US\"/><a:t>{}</a:t></a:r></a:p>",
                    xml_escape(t)
                )
            })
            .collect()
    };
    let ids: String = slides
        .iter()
        .enumerate()
        .map(|(i, (file, _, _))| format!(r#"<p:sldId id="{}" r:id="rIdSlide{file}"/>"#, 256 + i))
        .collect();
    let presentation = format!(
        r#"{XML_HEAD}<p:presentation {ns} xmlns:r="{NS_REL}"><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>"#
    );
    let pres_rels: Vec<(String, String)> = slides
        .iter()
        .map(|(file, _, _)| (format!("rIdSlide{file}"), format!("slides/slide{file}.xml")))
        .collect();
    let pres_rels = rels(
        &pres_rels
            .iter()
            .map(|(id, t)| (id.as_str(), "slide", t.as_str()))
            .collect::<Vec<_>>(),
    );
    let mut owned: Vec<(String, String)> = Vec::new();
    for (file, paragraphs, notes) in slides {
        owned.push((
            format!("ppt/slides/slide{file}.xml"),
            format!(
                r#"{XML_HEAD}<p:sld {ns}><p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/>{}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>"#,
                body(paragraphs)
            ),
        ));
        if let Some(notes) = notes {
            owned.push((
                format!("ppt/slides/_rels/slide{file}.xml.rels"),
                rels(&[(
                    "rIdN",
                    "notesSlide",
                    &format!("../notesSlides/notesSlide{file}.xml"),
                )]),
            ));
            owned.push((
                format!("ppt/notesSlides/notesSlide{file}.xml"),
                format!(
                    r#"{XML_HEAD}<p:notes {ns}><p:cSld><p:spTree><p:sp><p:txBody>{}</p:txBody></p:sp></p:spTree></p:cSld></p:notes>"#,
                    body(&[notes])
                ),
            ));
        }
    }
    let types = content_types("ppt/presentation.xml", "presentationml.presentation.main");
    let root_rels = rels(&[("rId1", "officeDocument", "ppt/presentation.xml")]);
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", root_rels.as_bytes()),
        ("ppt/presentation.xml", presentation.as_bytes()),
        ("ppt/_rels/presentation.xml.rels", pres_rels.as_bytes()),
    ];
    entries.extend(owned.iter().map(|(n, x)| (n.as_str(), x.as_bytes())));
    zip(&entries)
}

// ---------------------------------------------------------------------------
// OpenDocument and EPUB

/// An OpenDocument package (`mimetype` e.g. `application/vnd.oasis.opendocument.text`)
/// whose `office:body` holds `body`.
pub(crate) fn odf(mimetype: &str, body: &str) -> Vec<u8> {
    let content = format!(
        r#"{XML_HEAD}<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" office:version="1.3"><office:body>{body}</office:body></office:document-content>"#
    );
    let manifest = format!(
        r#"{XML_HEAD}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="{mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#
    );
    zip(&[
        ("mimetype", mimetype.as_bytes()),
        ("content.xml", content.as_bytes()),
        ("META-INF/manifest.xml", manifest.as_bytes()),
    ])
}

/// An EPUB whose chapters (`(file name, XHTML body)`) are listed in the
/// manifest in the given order and read in `spine` order (indexes).
pub(crate) fn epub(chapters: &[(&str, &str)], spine: &[usize]) -> Vec<u8> {
    let container = format!(
        r#"{XML_HEAD}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#
    );
    let items: String = chapters
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            format!(r#"<item id="c{i}" href="Text/{name}" media-type="application/xhtml+xml"/>"#)
        })
        .collect();
    let refs: String = spine
        .iter()
        .map(|i| format!(r#"<itemref idref="c{i}"/>"#))
        .collect();
    let opf = format!(
        r#"{XML_HEAD}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Test</dc:title></metadata><manifest>{items}</manifest><spine>{refs}</spine></package>"#
    );
    let pages: Vec<(String, String)> = chapters
        .iter()
        .map(|(name, body)| {
            (
                format!("OEBPS/Text/{name}"),
                format!(
                    r#"{XML_HEAD}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{name}</title><style>p {{ margin: 0 }}</style></head><body>{body}</body></html>"#
                ),
            )
        })
        .collect();
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("mimetype", b"application/epub+zip"),
        ("META-INF/container.xml", container.as_bytes()),
        ("OEBPS/content.opf", opf.as_bytes()),
    ];
    entries.extend(pages.iter().map(|(n, x)| (n.as_str(), x.as_bytes())));
    zip(&entries)
}
