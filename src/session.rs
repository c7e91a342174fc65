//! What searches in one process share: the thesaurus layers, and in a
//! long-lived process the documents it converted.
//!
//! A command-line run searches once, so it builds only the embedded concepts
//! its query could match (`thesaurus::builtin::load_focused`, start-up time).
//! A long-lived process (`kgrep --mcp`) searches many times: it builds the
//! whole embedded thesaurus once, and keeps the learned layer until the
//! learned file changes (its modification time or size), so what a model
//! taught in one call, or the user accepted from a shell, is used by the next.
//! Both give the same terms for any query (the focused load's tests show it).
//! Project layers (`.kgrep/` of the searched folder) and `--thesaurus` files
//! are small and read on each search, since they change with the paths asked
//! for. A long-lived process also keeps its conversions (PDF, Office…)
//! across searches, each while its file is unchanged
//! (`document::cache`). Does not own the layering itself
//! (`thesaurus::load_layers`) or converting (`document`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::document::cache::{ConversionCache, Stamp};
use crate::messages;
use crate::thesaurus::{self, LayerPaths, Thesaurus};

/// The reuse policy and the cached layers.
#[derive(Debug, Default)]
pub struct Session {
    reuse: bool,
    builtin: OnceLock<Thesaurus>,
    /// The embedded layer with the learned one on it, for one learned file state.
    learned: Mutex<Option<Learned>>,
    /// Conversions kept across searches (a reusing session only).
    conversions: Option<Arc<ConversionCache>>,
}

/// The embedded and learned layers as built for one state of the learned file.
#[derive(Debug)]
struct Learned {
    key: LearnedKey,
    thesaurus: Thesaurus,
}

/// What the cached layers were built from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct LearnedKey {
    builtin: bool,
    path: Option<PathBuf>,
    stamp: Option<Stamp>,
}

impl Session {
    /// One search: nothing is kept, only what the query needs is built.
    pub fn one_shot() -> Session {
        Session::default()
    }

    /// Many searches: layers are built once and reused while their files are
    /// unchanged.
    pub fn reusing() -> Session {
        Session {
            reuse: true,
            conversions: Some(Arc::new(ConversionCache::default())),
            ..Session::default()
        }
    }

    /// Where a search keeps its conversions: the session's, kept across
    /// searches, or a fresh one for this search alone.
    pub fn conversions(&self) -> Arc<ConversionCache> {
        self.conversions
            .clone()
            .unwrap_or_else(|| Arc::new(ConversionCache::default()))
    }

    /// The layered thesaurus for `paths`.
    pub fn thesaurus(&self, paths: &LayerPaths) -> Thesaurus {
        if !self.reuse {
            return thesaurus::load_layers(paths);
        }
        let mut t = self.embedded_and_learned(paths);
        thesaurus::add_file_layers(
            &mut t,
            &LayerPaths {
                learned: None,
                ..paths.clone()
            },
        );
        t
    }

    /// The layered thesaurus for `paths`, and what `beside` returns, `beside`
    /// run on this thread while the embedded layer is built on another (a
    /// one-shot search overlaps the walk with that build this way). The layers
    /// read from files are added after `beside` returns, so any warning about
    /// them comes after `beside`'s, as when the two run one after the other.
    pub fn thesaurus_beside<R>(
        &self,
        paths: &LayerPaths,
        beside: impl FnOnce() -> R,
    ) -> (R, Thesaurus) {
        if self.reuse || !paths.builtin {
            let r = beside();
            return (r, self.thesaurus(paths));
        }
        let (r, built) = std::thread::scope(|s| {
            let building = s.spawn(|| thesaurus::builtin::load_focused(paths.focus.as_deref()));
            let r = beside();
            (r, building.join())
        });
        // A panic in the build goes on here, as if it had run on this thread.
        let mut t = built.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        thesaurus::add_file_layers(&mut t, paths);
        (r, t)
    }

    /// The embedded layer (built once) with the learned layer on it (read
    /// again only when its file changed).
    fn embedded_and_learned(&self, paths: &LayerPaths) -> Thesaurus {
        let path = paths.learned.clone().filter(|p| p.exists());
        let key = LearnedKey {
            builtin: paths.builtin,
            stamp: path.as_deref().and_then(Stamp::of),
            path,
        };
        let mut cached = self.learned.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = cached.as_ref().filter(|c| c.key == key) {
            return c.thesaurus.clone();
        }
        let mut t = if key.builtin {
            self.builtin.get_or_init(thesaurus::builtin::load).clone()
        } else {
            Thesaurus::new()
        };
        if let Some(path) = &key.path {
            if cached.is_some() {
                messages::verbose(&format!("thesaurus: reloading {}", path.display()));
            }
            thesaurus::add_file_layers(
                &mut t,
                &LayerPaths {
                    learned: Some(path.clone()),
                    ..LayerPaths::default()
                },
            );
        }
        *cached = Some(Learned {
            key,
            thesaurus: t.clone(),
        });
        t
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::path::Path;

    fn learned_file(dir: &Path, concept: &str, synonym: &str) -> PathBuf {
        let path = dir.join("thesaurus.json");
        std::fs::write(
            &path,
            format!(r#"{{"data": {{"{synonym}": {{"id": 1, "nterm": "{concept}"}}}}}}"#),
        )
        .unwrap();
        path
    }

    #[test]
    fn a_reusing_session_sees_a_changed_learned_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = learned_file(dir.path(), "widget", "gizmo");
        let paths = LayerPaths {
            builtin: true,
            learned: Some(path.clone()),
            ..LayerPaths::default()
        };
        let session = Session::reusing();
        let first = session.thesaurus(&paths);
        assert!(first.lookup("gizmo").is_some());
        assert!(first.lookup("cfg").is_some(), "the embedded layer is there");
        // A different size, so the change shows even where mtimes are coarse.
        learned_file(dir.path(), "widget", "doohickeys");
        let second = session.thesaurus(&paths);
        assert!(second.lookup("doohickeys").is_some());
        assert!(second.lookup("gizmo").is_none());
        std::fs::remove_file(&path).unwrap();
        assert!(session.thesaurus(&paths).lookup("doohickeys").is_none());
    }

    #[test]
    fn reuse_and_a_build_beside_give_the_layers_a_fresh_load_gives() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("proj");
        std::fs::create_dir_all(project.join(".kgrep/kg")).unwrap();
        std::fs::write(
            project.join(".kgrep/kg/w.md"),
            "# Widget\nsynonyms:: gizmo\n",
        )
        .unwrap();
        let paths = LayerPaths {
            builtin: true,
            learned: Some(learned_file(dir.path(), "thingamajig", "whatsit")),
            project_roots: vec![project],
            ..LayerPaths::default()
        };
        let fresh = thesaurus::load_layers(&paths);
        let session = Session::reusing();
        let one_shot = Session::one_shot();
        let built = [
            session.thesaurus(&paths),
            session.thesaurus(&paths),
            one_shot.thesaurus_beside(&paths, || ()).1,
            session.thesaurus_beside(&paths, || ()).1,
        ];
        assert_eq!(one_shot.thesaurus_beside(&paths, || 7).0, 7);
        for reused in built {
            assert_eq!(reused.concept_count(), fresh.concept_count());
            assert_eq!(reused.synonym_count(), fresh.synonym_count());
            for word in ["gizmo", "whatsit", "cfg", "retries", "nothing-here"] {
                let name =
                    |t: &Thesaurus| t.lookup(word).map(|i| t.concept(i).unwrap().name.clone());
                assert_eq!(name(&reused), name(&fresh), "{word}");
            }
        }
    }
}
