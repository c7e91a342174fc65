//! EPUB books: the chapters' text in reading (spine) order.
//!
//! `META-INF/container.xml` names the package document (OPF); its manifest maps
//! ids to files and its spine lists the reading order. Each chapter (XHTML) is
//! laid out by [`super::html::block_text`], one line per paragraph, with an
//! empty line between chapters. Books encrypted with DRM (`META-INF/encryption.xml`
//! listing content files) have no readable text and are reported as encrypted.

use std::collections::HashMap;

use super::archive::{folder, resolve, Archive};
use super::html::block_text;
use super::text::TextOut;
use super::xml::{attr, local, walk, Node};
use super::{ConvertError, Converted, Format, Limits};

const CONTAINER: &str = "META-INF/container.xml";
const ENCRYPTION: &str = "META-INF/encryption.xml";

pub(super) fn convert(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let mut zip = Archive::open(bytes, Format::Epub, limits)?;
    if is_drm_protected(&mut zip)? {
        return Err(ConvertError::Encrypted(Format::Epub.name()));
    }
    let package = package_path(&mut zip)?;
    let opf = zip
        .text(&package)?
        .ok_or_else(|| ConvertError::corrupt(Format::Epub, format!("no {package} in the book")))?;
    let chapters = reading_order(&opf, folder(&package))?;
    let mut out = TextOut::new(Format::Epub, limits.max_zip_text_bytes);
    let write = |out: &mut TextOut| -> Result<(), ConvertError> {
        for chapter in chapters {
            if let Some(xhtml) = zip.text(&chapter)? {
                block_text(&xhtml, out)?;
                out.end_line()?;
            }
        }
        Ok(())
    };
    let done = write(&mut out);
    out.finish_after(done)
}

/// DRM lists encrypted content in `encryption.xml`; font obfuscation alone
/// (also listed there) leaves the text readable.
fn is_drm_protected(zip: &mut Archive<'_>) -> Result<bool, ConvertError> {
    let Some(xml) = zip.text(ENCRYPTION)? else {
        return Ok(false);
    };
    let mut protected = false;
    walk(&xml, Format::Epub, |node| {
        if let Node::Open { el, .. } = node {
            if local(el) == "CipherReference" {
                let uri = attr(el, "URI").unwrap_or_default().to_ascii_lowercase();
                let is_font = [".ttf", ".otf", ".woff", ".woff2"]
                    .iter()
                    .any(|ext| uri.ends_with(ext));
                protected |= !is_font;
            }
        }
        Ok(())
    })?;
    Ok(protected)
}

/// The package document named by the container, or the first `.opf` file.
fn package_path(zip: &mut Archive<'_>) -> Result<String, ConvertError> {
    let xml = zip.text(CONTAINER)?.ok_or_else(|| {
        ConvertError::corrupt(Format::Epub, format!("no {CONTAINER} in the book"))
    })?;
    let mut path = None;
    walk(&xml, Format::Epub, |node| {
        if let Node::Open { el, .. } = node {
            if local(el) == "rootfile" && path.is_none() {
                path = attr(el, "full-path");
            }
        }
        Ok(())
    })?;
    path.ok_or_else(|| ConvertError::corrupt(Format::Epub, "the container names no package"))
}

/// The chapter files in spine order, as archive paths.
fn reading_order(opf: &str, base: &str) -> Result<Vec<String>, ConvertError> {
    let mut manifest: HashMap<String, String> = HashMap::new();
    let mut spine: Vec<String> = Vec::new();
    walk(opf, Format::Epub, |node| {
        if let Node::Open { el, .. } = node {
            match local(el) {
                "item" => {
                    if let (Some(id), Some(href)) = (attr(el, "id"), attr(el, "href")) {
                        manifest.insert(id, href);
                    }
                }
                "itemref" => spine.extend(attr(el, "idref")),
                _ => {}
            }
        }
        Ok(())
    })?;
    Ok(spine
        .iter()
        .filter_map(|id| manifest.get(id))
        .map(|href| resolve(base, href.split('#').next().unwrap_or(href)))
        .collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn spine_order_wins_over_manifest_order() {
        let opf = r#"<package><manifest>
            <item id="c2" href="Text/two.xhtml" media-type="application/xhtml+xml"/>
            <item id="c1" href="Text/one%20a.xhtml#start" media-type="application/xhtml+xml"/>
            <item id="css" href="style.css" media-type="text/css"/>
            </manifest><spine><itemref idref="c1"/><itemref idref="c2"/><itemref idref="missing"/></spine></package>"#;
        assert_eq!(
            reading_order(opf, "OEBPS/").unwrap(),
            ["OEBPS/Text/one a.xhtml", "OEBPS/Text/two.xhtml"]
        );
    }
}
