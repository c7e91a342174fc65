//! The `--thesaurus-*` commands: list the learned concepts with their
//! provenance, accept or forget one, export them (Terraphim JSON or a
//! Markdown folder) and import concepts. They run without a query, on the
//! file `--learn-to` names, and print to stdout (the list) or say what they
//! did on stderr.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::{json, Map};

use super::{store, Lesson};
use crate::exit::ExitStatus;
use crate::messages;
use crate::own_file::{self, Follow};
use crate::thesaurus::{self, Layer, Standing, Thesaurus};

/// One `--thesaurus-*` command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    List,
    Accept(String),
    Forget(String),
    Export(PathBuf),
    Import(PathBuf),
}

/// Runs a command on the learned file `path`. `known`: the loaded layers,
/// against which imported synonyms are checked.
pub fn run(command: &Command, path: &Path, known: &Thesaurus) -> anyhow::Result<ExitStatus> {
    match command {
        Command::List => list(path),
        Command::Accept(name) => accept(path, name),
        Command::Forget(name) => forget(path, name),
        Command::Export(to) => export(path, to),
        Command::Import(from) => import(path, from, known),
    }
}

/// Tabs and line breaks inside a field would break the columns; bidi
/// controls, U+2028 and other hidden format characters would reorder or
/// break what shows (`render::sanitize::is_hidden_format`).
fn field(text: &str) -> String {
    let hidden = |c: char| c.is_control() || crate::render::sanitize::is_hidden_format(c);
    text.chars()
        .map(|c| if hidden(c) { ' ' } else { c })
        .collect()
}

/// The learned file, or an error a user can act on (a corrupt file is not
/// an empty one).
fn read(path: &Path) -> anyhow::Result<store::Doc> {
    match store::load(path) {
        Ok(doc) => Ok(doc.unwrap_or_else(store::Doc::empty)),
        Err(err) => Err(anyhow::anyhow!("{err}")),
    }
}

/// One line per concept: name, status, hits, date, model, synonyms, query.
fn list(path: &Path) -> anyhow::Result<ExitStatus> {
    let doc = read(path)?;
    let mut out = String::new();
    for e in doc.entries() {
        let line = [
            field(&e.name),
            e.status.name().to_string(),
            e.hits.to_string(),
            field(&e.date),
            field(&e.model),
            field(&terms_column(&e)),
            field(&e.query),
        ]
        .join("\t");
        out.push_str(&line);
        out.push('\n');
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .context("writing the list")?;
    stdout.flush().context("writing the list")?;
    Ok(ExitStatus::Matched)
}

/// A concept's synonyms, and a learned answer's identifiers after `answer:`
/// (they are searched only for the questions that learned them).
fn terms_column(e: &store::Entry) -> String {
    let mut column = e.synonyms.join(",");
    if !e.answer.is_empty() {
        if !column.is_empty() {
            column.push(' ');
        }
        column.push_str("answer:");
        column.push_str(&e.answer.join(","));
    }
    column
}

/// The normalised name, or a usage error.
fn name_of(name: &str) -> anyhow::Result<String> {
    match thesaurus::normalize(name) {
        Some(n) => Ok(n),
        None => bail!("not a concept name: {name:?}"),
    }
}

fn accept(path: &Path, name: &str) -> anyhow::Result<ExitStatus> {
    let name = name_of(name)?;
    let found = store::update(path, |doc| {
        let Some(id) = doc.id_of(&name) else {
            return Ok((false, false));
        };
        let mut meta = doc.provenance(&name).cloned().unwrap_or_else(|| {
            let mut m = Map::new();
            m.insert("id".into(), json!(id));
            m
        });
        meta.insert("status".into(), json!(Standing::Accepted.name()));
        doc.set_provenance(&name, meta);
        Ok((true, true))
    })
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    report(found, &format!("accepted {name}"), &name, path)
}

fn forget(path: &Path, name: &str) -> anyhow::Result<ExitStatus> {
    let name = name_of(name)?;
    let found = store::update(path, |doc| {
        let removed = doc.remove(&name);
        Ok((removed, removed))
    })
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    report(found, &format!("forgot {name}"), &name, path)
}

/// Says what was done, or that the concept is not there (exit 1).
fn report(found: bool, done: &str, name: &str, path: &Path) -> anyhow::Result<ExitStatus> {
    if found {
        messages::line(done);
        Ok(ExitStatus::Matched)
    } else {
        messages::line(&format!(
            "no learned concept named {name:?} in {}",
            path.display()
        ));
        Ok(ExitStatus::NoMatch)
    }
}

/// Whether an export path names a Markdown folder: an existing directory, or
/// a path written with a trailing `/`.
fn is_folder(to: &Path) -> bool {
    to.is_dir() || to.as_os_str().to_string_lossy().ends_with('/')
}

fn export(path: &Path, to: &Path) -> anyhow::Result<ExitStatus> {
    let doc = read(path)?;
    if is_folder(to) {
        std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
        let entries = doc.entries();
        for e in &entries {
            let file = to.join(format!("{}.md", file_stem(&e.name)));
            std::fs::write(&file, markdown(&e.name, &e.display, &e.synonyms))
                .with_context(|| format!("cannot write {}", file.display()))?;
        }
        messages::line(&format!(
            "exported {} concept(s) to {}",
            entries.len(),
            to.display()
        ));
    } else {
        store::write_atomic(to, &doc.to_text())?;
        messages::line(&format!(
            "exported {} concept(s) to {}",
            doc.entries().len(),
            to.display()
        ));
    }
    Ok(ExitStatus::Matched)
}

/// A concept as a Markdown KG file: `# Display Name` (the imported heading,
/// else the name capitalised) and its `synonyms::` line. The heading is read
/// back as a synonym, so the synonym it spells is not repeated.
pub fn markdown(name: &str, display: &str, synonyms: &[String]) -> String {
    let title = if display.trim().is_empty() {
        let mut title: Vec<char> = name.chars().collect();
        if let Some(first) = title.first_mut() {
            *first = first.to_uppercase().next().unwrap_or(*first);
        }
        title.into_iter().collect()
    } else {
        display.trim().to_string()
    };
    let heading = thesaurus::normalize(&title);
    let listed: Vec<&str> = synonyms
        .iter()
        .map(String::as_str)
        .filter(|s| heading.as_deref() != Some(*s))
        .collect();
    let mut text = format!("# {title}\n");
    if !listed.is_empty() {
        text.push_str(&format!("\nsynonyms:: {}\n", listed.join(", ")));
    }
    text
}

/// A concept name usable as a file name (path separators and leading dots
/// replaced).
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    match stem.strip_prefix('.') {
        Some(rest) => format!("_{rest}"),
        None => stem,
    }
}

fn import(path: &Path, from: &Path, known: &Thesaurus) -> anyhow::Result<ExitStatus> {
    let source = thesaurus::file::read(from, Layer::User)?;
    let lessons: Vec<Lesson> = (0..source.concept_count())
        .filter_map(|i| {
            let concept = source.concept(i)?;
            Some(Lesson {
                name: concept.name.clone(),
                terms: source.synonyms(i).to_vec(),
            })
        })
        .collect();
    let displays = displays_of(from);
    let written = super::import(
        path,
        &lessons,
        known,
        &from.display().to_string(),
        &displays,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let offered: usize = lessons.iter().map(|l| l.terms.len()).sum();
    let kept: usize = written.iter().map(|(_, t)| t.len() + 1).sum();
    messages::line(&format!(
        "imported {} of {} concept(s) into {} ({} synonym(s) already known or not kept)",
        written.len(),
        lessons.len(),
        path.display(),
        offered.saturating_sub(kept)
    ));
    let doc = read(path)?;
    for lesson in &lessons {
        let name = super::filter::clean(&lesson.name);
        if written.iter().any(|(w, _)| Some(w) == name.as_ref()) {
            continue;
        }
        let why = super::filter::refusal(&lesson.name, &lesson.terms, known, &doc);
        messages::line(&format!("not imported: {}: {why}", lesson.name));
    }
    Ok(ExitStatus::Matched)
}

/// The display names an import source gives its concepts, by concept name:
/// each Markdown file's `# Heading`, or a kgrep export's `display`.
fn displays_of(from: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if from.is_dir() {
        let Ok(entries) = std::fs::read_dir(from) else {
            return out;
        };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.extension().is_none_or(|x| x != "md") {
                continue;
            }
            let text = own_file::read_to_string(&path, Follow::Yes, own_file::MAX_BYTES);
            let (Some(stem), Ok(text)) = (path.file_stem(), text) else {
                continue;
            };
            if let (Some(display), _) = thesaurus::file::parse_markdown(&text) {
                out.insert(stem.to_string_lossy().to_lowercase(), display);
            }
        }
    } else if let Ok(Some(doc)) = store::load_from(from, Follow::Yes) {
        for e in doc.entries().into_iter().filter(|e| !e.display.is_empty()) {
            out.insert(e.name, e.display);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_form_reads_back() {
        let text = markdown("gronk step", "", &["zibble".into(), "zib frame".into()]);
        assert_eq!(text, "# Gronk step\n\nsynonyms:: zibble, zib frame\n");
        let (display, synonyms) = thesaurus::file::parse_markdown(&text);
        assert_eq!(display.as_deref(), Some("Gronk step"));
        assert_eq!(synonyms, vec!["zibble", "zib frame"]);
        assert_eq!(file_stem("../a/b"), "_._a_b");
    }
}
