//! OpenDocument: text (`.odt`), spreadsheets (`.ods`) and presentations (`.odp`).
//!
//! All three keep their content in `content.xml`, so one walk serves them:
//! paragraphs and headings (`text:p`, `text:h`) one per line, with `text:s`
//! spaces, tabs and line breaks; table rows one per line with cells separated
//! by tabs; a spreadsheet's tables after `===== Sheet: NAME =====`, a
//! presentation's pages after `===== Slide N =====` (the layout of the Office
//! formats). Tracked deletions are not searched. Repeated cells
//! (`number-columns-repeated`) are written once: a spreadsheet may "repeat"
//! an empty cell a million times to pad a row, and text repeated is no more
//! findable than text written once.

use super::archive::Archive;
use super::text::TextOut;
use super::xml::{attr_local, local, walk, Node};
use super::{ConvertError, Converted, Format, Limits};

/// Most spaces one `text:s` element may stand for.
const MAX_SPACES: usize = 64;

pub(super) fn convert(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let mut zip = Archive::open(bytes, Format::Odf, limits)?;
    if zip.has("encryption-info") || manifest_has_encryption(&mut zip)? {
        return Err(ConvertError::Encrypted(Format::Odf.name()));
    }
    let xml = zip
        .text("content.xml")?
        .ok_or_else(|| ConvertError::corrupt(Format::Odf, "no content.xml in the package"))?;
    let mut out = TextOut::new(Format::Odf, limits.max_zip_text_bytes);
    let done = content(&xml, &mut out);
    out.finish_after(done)
}

/// An encrypted ODF package lists `manifest:encryption-data` for its parts.
fn manifest_has_encryption(zip: &mut Archive<'_>) -> Result<bool, ConvertError> {
    Ok(zip
        .text("META-INF/manifest.xml")?
        .is_some_and(|xml| xml.contains("encryption-data")))
}

/// Walk state: where in the body we are.
#[derive(Default)]
struct State {
    /// Inside `office:spreadsheet` (tables are sheets).
    spreadsheet: bool,
    /// Slides seen so far, in a presentation.
    slides: usize,
    /// Depth of open paragraphs: text outside one is layout whitespace.
    paragraph: usize,
    /// Depth of open table rows.
    row: usize,
    /// Depth of `text:tracked-changes` (deleted text lives there).
    deleted: usize,
}

fn content(xml: &str, out: &mut TextOut) -> Result<(), ConvertError> {
    let mut st = State::default();
    walk(xml, Format::Odf, |node| {
        match node {
            Node::Open { el, empty } => {
                let name = local(el);
                match name {
                    "spreadsheet" => st.spreadsheet = true,
                    "tracked-changes" if !empty => st.deleted += 1,
                    "p" | "h" if !empty => st.paragraph += 1,
                    "table-row" if !empty => st.row += 1,
                    "table" if st.spreadsheet => {
                        let name = attr_local(el, "name").unwrap_or_default();
                        out.marker(&format!("Sheet: {name}"))?;
                    }
                    "page" => {
                        st.slides += 1;
                        out.marker(&format!("Slide {}", st.slides))?;
                    }
                    "s" if st.paragraph > 0 => {
                        let count = attr_local(el, "c")
                            .and_then(|c| c.parse().ok())
                            .unwrap_or(1);
                        out.push_str(&" ".repeat(usize::min(count, MAX_SPACES)))?;
                    }
                    "tab" if st.paragraph > 0 => out.push('\t')?,
                    "line-break" if st.row > 0 => out.separate(' ')?,
                    "line-break" => out.end_line()?,
                    _ => {}
                }
            }
            Node::Close(name) => match name {
                "tracked-changes" => st.deleted = st.deleted.saturating_sub(1),
                "p" | "h" => {
                    st.paragraph = st.paragraph.saturating_sub(1);
                    if st.row > 0 {
                        out.separate(' ')?;
                    } else {
                        out.end_line()?;
                    }
                }
                "table-cell" | "covered-table-cell" => out.separate('\t')?,
                "table-row" => {
                    st.row = st.row.saturating_sub(1);
                    out.end_row()?;
                }
                _ => {}
            },
            Node::Text(text) if st.paragraph > 0 && st.deleted == 0 => out.push_str(&text)?,
            Node::Text(_) => {}
        }
        Ok(())
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn text_of(body: &str) -> String {
        let xml = format!(
            r#"<office:document-content xmlns:office="o" xmlns:text="t" xmlns:table="b" xmlns:draw="d"><office:body>{body}</office:body></office:document-content>"#
        );
        let mut out = TextOut::new(Format::Odf, 1 << 20);
        content(&xml, &mut out).unwrap();
        out.finish()
    }

    #[test]
    fn paragraphs_headings_spaces_and_tabs() {
        let got = text_of(
            r#"<office:text><text:h>Title</text:h><text:p>a<text:s text:c="3"/>b<text:tab/>c<text:line-break/>d</text:p>
            <text:p><text:span>styled</text:span> text</text:p></office:text>"#,
        );
        assert_eq!(got, "Title\na   b\tc\nd\nstyled text\n");
    }

    #[test]
    fn spreadsheet_tables_are_sheets_with_tab_separated_rows() {
        let got = text_of(
            r#"<office:spreadsheet><table:table table:name="Costs"><table:table-row>
            <table:table-cell><text:p>Item</text:p></table:table-cell>
            <table:table-cell table:number-columns-repeated="1000000"/>
            <table:table-cell><text:p>Price</text:p></table:table-cell></table:table-row>
            <table:table-row table:number-rows-repeated="1048000"><table:table-cell/></table:table-row>
            </table:table><table:table table:name="Notes"><table:table-row><table:table-cell>
            <text:p>see</text:p><text:p>above</text:p></table:table-cell></table:table-row></table:table>
            </office:spreadsheet>"#,
        );
        assert_eq!(
            got,
            "===== Sheet: Costs =====\nItem\tPrice\n===== Sheet: Notes =====\nsee above\n"
        );
    }

    #[test]
    fn presentation_pages_are_slides() {
        let got = text_of(
            r#"<office:presentation><draw:page><draw:frame><draw:text-box><text:p>Intro</text:p></draw:text-box></draw:frame></draw:page>
            <draw:page><text:p>Second</text:p></draw:page></office:presentation>"#,
        );
        assert_eq!(
            got,
            "===== Slide 1 =====\nIntro\n===== Slide 2 =====\nSecond\n"
        );
    }

    #[test]
    fn tracked_deletions_are_not_text() {
        let got = text_of(
            r#"<office:text><text:tracked-changes><text:changed-region><text:deletion><text:p>gone</text:p></text:deletion></text:changed-region></text:tracked-changes><text:p>kept</text:p></office:text>"#,
        );
        assert_eq!(got, "kept\n");
    }
}
