//! The resource dictionaries a content stream draws from: its fonts and forms.
//!
//! A page's resources may sit on the page or be inherited from the page tree
//! (lopdf collects them); a form XObject has its own, or uses its parent's.
//! This module only looks things up; it interprets nothing.

use std::collections::BTreeMap;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

/// References followed before giving up: a chain longer than this is a cycle.
const MAX_REFERENCE_HOPS: usize = 32;

/// The resource dictionaries in effect, nearest first.
#[derive(Clone, Default)]
pub(super) struct Resources<'d> {
    dicts: Vec<&'d Dictionary>,
}

impl<'d> Resources<'d> {
    /// A page's resources: its own or inherited from the page tree.
    pub(super) fn of_page(doc: &'d Document, page: ObjectId) -> Resources<'d> {
        let Ok((direct, ids)) = doc.get_page_resources(page) else {
            return Resources::default();
        };
        let mut dicts: Vec<&Dictionary> = direct.into_iter().collect();
        dicts.extend(ids.into_iter().filter_map(|id| doc.get_dictionary(id).ok()));
        Resources { dicts }
    }

    /// A form's resources, or its parent's when it has none of its own.
    pub(super) fn of_form(
        doc: &'d Document,
        form: &'d Stream,
        parent: &Resources<'d>,
    ) -> Resources<'d> {
        match form.dict.get(b"Resources").ok().and_then(|o| dict(doc, o)) {
            Some(own) => Resources { dicts: vec![own] },
            None => parent.clone(),
        }
    }

    /// Font dictionaries by resource name; the nearest dictionary wins.
    pub(super) fn fonts(&self, doc: &'d Document) -> BTreeMap<Vec<u8>, &'d Dictionary> {
        let mut fonts = BTreeMap::new();
        for entries in self.category(doc, b"Font") {
            for (name, value) in entries.iter() {
                if let Some(font) = dict(doc, value) {
                    fonts.entry(name.clone()).or_insert(font);
                }
            }
        }
        fonts
    }

    /// The form XObject called `name`, with its object id (images are not forms).
    pub(super) fn form(&self, doc: &'d Document, name: &[u8]) -> Option<(ObjectId, &'d Stream)> {
        for entries in self.category(doc, b"XObject") {
            let Ok(Object::Reference(id)) = entries.get(name) else {
                continue;
            };
            let stream = doc.get_object(*id).ok()?.as_stream().ok()?;
            let is_form = stream.dict.get(b"Subtype").and_then(Object::as_name).ok()
                == Some(b"Form".as_slice());
            return is_form.then_some((*id, stream));
        }
        None
    }

    /// The sub-dictionaries `key` (`/Font`, `/XObject`) of each resource dictionary.
    fn category<'s>(
        &'s self,
        doc: &'d Document,
        key: &'s [u8],
    ) -> impl Iterator<Item = &'d Dictionary> + 's {
        self.dicts
            .iter()
            .filter_map(move |resources| dict(doc, resources.get(key).ok()?))
    }
}

/// `object` as a dictionary, following references.
pub(super) fn dict<'d>(doc: &'d Document, object: &'d Object) -> Option<&'d Dictionary> {
    resolve(doc, object)?.as_dict().ok()
}

/// `object` with references followed (at most [`MAX_REFERENCE_HOPS`]).
pub(super) fn resolve<'d>(doc: &'d Document, mut object: &'d Object) -> Option<&'d Object> {
    for _ in 0..MAX_REFERENCE_HOPS {
        match object {
            Object::Reference(id) => object = doc.get_object(*id).ok()?,
            other => return Some(other),
        }
    }
    None
}

/// A number operand or dictionary value.
pub(super) fn number(object: &Object) -> Option<f64> {
    match object {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(f64::from(*r)),
        _ => None,
    }
}
