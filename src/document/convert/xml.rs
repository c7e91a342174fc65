//! A small, forgiving walk over an XML part (quick-xml underneath).
//!
//! Converters see [`Node`]s: elements by local name (prefixes differ between
//! producers, local names do not), and text with entities already resolved.
//! quick-xml streams, so a part never becomes a tree in memory and nesting
//! depth costs nothing. A malformed part is an error the caller reports.

use std::borrow::Cow;

use quick_xml::escape::resolve_xml_entity;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use super::{ConvertError, Format};

/// One step of the walk.
pub(super) enum Node<'x> {
    /// `<name …>`; `empty` for `<name …/>` (no `Close` follows).
    Open { el: &'x BytesStart<'x>, empty: bool },
    /// `</name>`, by local name.
    Close(&'x str),
    /// Character data, entities resolved.
    Text(Cow<'x, str>),
}

/// Calls `visit` for every element and text node of `xml`, in document order.
pub(super) fn walk<F>(xml: &str, format: Format, mut visit: F) -> Result<(), ConvertError>
where
    F: FnMut(Node<'_>) -> Result<(), ConvertError>,
{
    let mut reader = Reader::from_str(xml);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| ConvertError::corrupt(format, format!("bad XML: {e}")))?;
        match event {
            Event::Start(el) => visit(Node::Open {
                el: &el,
                empty: false,
            })?,
            Event::Empty(el) => visit(Node::Open {
                el: &el,
                empty: true,
            })?,
            Event::End(el) => visit(Node::Close(el.local_name().into_inner()))?,
            Event::Text(text) => visit(Node::Text(text.xml10_content()))?,
            Event::CData(data) => visit(Node::Text(Cow::Owned(data.into_inner().into_owned())))?,
            Event::GeneralRef(reference) => {
                if let Some(text) = resolve_reference(&reference) {
                    visit(Node::Text(Cow::Owned(text)))?
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// `&amp;` and friends, and `&#…;` character references (quick-xml's
/// resolvers); other entities are kept as written, a malformed character
/// reference is dropped.
fn resolve_reference(reference: &BytesRef<'_>) -> Option<String> {
    if let Some(text) = resolve_xml_entity(reference) {
        return Some(text.to_string());
    }
    if reference.starts_with('#') {
        return char_reference(reference).map(String::from);
    }
    Some(format!("&{};", &**reference))
}

/// The character a `#…` reference (`#233`, `#xE9`; without `&` and `;`)
/// stands for, by quick-xml's parser; `None` for U+0000, a surrogate or a
/// malformed number. The one home of character references for XML and HTML.
pub(super) fn char_reference(reference: &str) -> Option<char> {
    // HTML allows `&#X…;`, quick-xml (XML) only `&#x…;`: spelled the XML way
    // by hand, as the converters always accepted both.
    let reference = match reference.strip_prefix("#X") {
        Some(hex) => BytesRef::new(format!("#x{hex}")),
        None => BytesRef::new(reference),
    };
    reference.resolve_char_ref().ok().flatten()
}

/// An element's local name (`w:p` → `p`).
pub(super) fn local<'a>(el: &'a BytesStart<'_>) -> &'a str {
    el.local_name().into_inner()
}

/// The value of the attribute written exactly `key` (`name`, `r:id`).
pub(super) fn attr(el: &BytesStart<'_>, key: &str) -> Option<String> {
    let value = el.try_get_attribute(key).ok()??;
    value
        .normalized_value(XmlVersion::Implicit1_0)
        .ok()
        .map(Cow::into_owned)
}

/// The value of the first attribute whose local name is `local`, whatever its
/// prefix (`table:name`, `text:c`).
pub(super) fn attr_local(el: &BytesStart<'_>, local: &str) -> Option<String> {
    el.attributes().with_checks(false).flatten().find_map(|a| {
        let key = a.key.local_name();
        (key.as_ref() == local)
            .then(|| {
                a.normalized_value(XmlVersion::Implicit1_0)
                    .ok()
                    .map(Cow::into_owned)
            })
            .flatten()
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn texts(xml: &str) -> String {
        let mut out = String::new();
        walk(xml, Format::Docx, |node| {
            match node {
                Node::Open { el, .. } => out.push_str(&format!("<{}>", local(el))),
                Node::Close(name) => out.push_str(&format!("</{name}>")),
                Node::Text(t) => out.push_str(&t),
            }
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn entities_and_prefixes() {
        assert_eq!(
            texts(r#"<w:p><w:t>a &amp; b &#x41;&#66; &nbsp;</w:t><![CDATA[<c>]]></w:p>"#),
            "<p><t>a & b AB &nbsp;</t><c></p>"
        );
    }

    #[test]
    fn malformed_xml_is_an_error() {
        let err = walk("<a><b", Format::Docx, |_| Ok(())).unwrap_err();
        assert!(err.to_string().contains("bad XML"), "{err}");
    }

    #[test]
    fn attributes_by_key_and_by_local_name() {
        let xml = r#"<s name="Q1 &amp; Q2" r:id="rId3" table:name="T"/>"#;
        walk(xml, Format::Xlsx, |node| {
            if let Node::Open { el, .. } = node {
                assert_eq!(attr(el, "name").as_deref(), Some("Q1 & Q2"));
                assert_eq!(attr(el, "r:id").as_deref(), Some("rId3"));
                assert_eq!(attr(el, "id"), None);
                assert_eq!(attr_local(el, "id").as_deref(), Some("rId3"));
            }
            Ok(())
        })
        .unwrap();
    }
}
