//! Where kgrep's own files live: the one home of the XDG base-directory
//! rules and of every file name kgrep reads or writes outside the corpus
//! (rlmgrep's and kgrep's config, the user's learned thesaurus, a project's
//! `.kgrep/` folder).
//!
//! Owns resolving those paths from an environment snapshot ([`Env`]). Does
//! not read or write any of the files (`config`, `thesaurus`, `learn`).
//!
//! Written by hand rather than with `dirs`/`etcetera`: kgrep follows XDG on
//! every platform (as rlmgrep's `~/.rlmgrep` is the same everywhere), and
//! the rule is two lines.

use std::path::{Path, PathBuf};

/// The project folder, at a project's root.
pub const PROJECT_DIR: &str = ".kgrep";

/// The variables the paths depend on, read once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    pub home: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub xdg_data_home: Option<PathBuf>,
}

impl Env {
    /// The process's `HOME`, `XDG_CONFIG_HOME` and `XDG_DATA_HOME`.
    pub fn from_process() -> Env {
        let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
        Env {
            home: var("HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
            xdg_data_home: var("XDG_DATA_HOME"),
        }
    }

    /// `HOME`, unless unset or empty.
    fn home(&self) -> Option<&Path> {
        self.home.as_deref().filter(|h| !h.as_os_str().is_empty())
    }

    /// An XDG base directory: the variable when it is absolute (the spec
    /// says a relative one is ignored), else `$HOME/<fallback>`.
    fn base(&self, var: Option<&Path>, fallback: &str) -> Option<PathBuf> {
        var.filter(|p| p.is_absolute())
            .map(Path::to_path_buf)
            .or_else(|| self.home().map(|h| h.join(fallback)))
    }

    /// rlmgrep's config, `~/.rlmgrep/config.toml`.
    pub fn rlmgrep_config(&self) -> Option<PathBuf> {
        self.home().map(|h| h.join(".rlmgrep").join("config.toml"))
    }

    /// kgrep's config, `$XDG_CONFIG_HOME/kgrep/config.toml`.
    pub fn kgrep_config(&self) -> Option<PathBuf> {
        let dir = self.base(self.xdg_config_home.as_deref(), ".config")?;
        Some(dir.join("kgrep").join("config.toml"))
    }

    /// The user's learned thesaurus, `$XDG_DATA_HOME/kgrep/thesaurus.json`.
    pub fn learned_thesaurus(&self) -> Option<PathBuf> {
        let dir = self.base(self.xdg_data_home.as_deref(), ".local/share")?;
        Some(dir.join("kgrep").join("thesaurus.json"))
    }
}

/// A project's learned thesaurus, `<root>/.kgrep/thesaurus.json`.
pub fn project_thesaurus(root: &Path) -> PathBuf {
    root.join(PROJECT_DIR).join("thesaurus.json")
}

/// A project's Markdown knowledge graph, `<root>/.kgrep/kg/`.
pub fn project_kg(root: &Path) -> PathBuf {
    root.join(PROJECT_DIR).join("kg")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn env(home: Option<&str>, config: Option<&str>, data: Option<&str>) -> Env {
        Env {
            home: home.map(PathBuf::from),
            xdg_config_home: config.map(PathBuf::from),
            xdg_data_home: data.map(PathBuf::from),
        }
    }

    #[test]
    fn paths_follow_home_and_xdg() {
        let e = env(Some("/h"), None, None);
        assert_eq!(
            e.rlmgrep_config().unwrap(),
            PathBuf::from("/h/.rlmgrep/config.toml")
        );
        assert_eq!(
            e.kgrep_config().unwrap(),
            PathBuf::from("/h/.config/kgrep/config.toml")
        );
        assert_eq!(
            e.learned_thesaurus().unwrap(),
            PathBuf::from("/h/.local/share/kgrep/thesaurus.json")
        );
        let e = env(Some("/h"), Some("/x"), Some("/d"));
        assert_eq!(
            e.kgrep_config().unwrap(),
            PathBuf::from("/x/kgrep/config.toml")
        );
        assert_eq!(
            e.learned_thesaurus().unwrap(),
            PathBuf::from("/d/kgrep/thesaurus.json")
        );
    }

    #[test]
    fn a_relative_xdg_variable_is_ignored() {
        let e = env(Some("/h"), Some("relative"), Some("also/relative"));
        assert_eq!(
            e.kgrep_config().unwrap(),
            PathBuf::from("/h/.config/kgrep/config.toml")
        );
        assert_eq!(
            e.learned_thesaurus().unwrap(),
            PathBuf::from("/h/.local/share/kgrep/thesaurus.json")
        );
    }

    #[test]
    fn no_home_means_no_home_relative_path() {
        for e in [env(None, None, None), env(Some(""), None, None)] {
            assert_eq!(e.rlmgrep_config(), None);
            assert_eq!(e.kgrep_config(), None);
            assert_eq!(e.learned_thesaurus(), None);
        }
        let e = env(Some(""), Some("/x"), Some("/d"));
        assert_eq!(
            e.kgrep_config().unwrap(),
            PathBuf::from("/x/kgrep/config.toml")
        );
        assert_eq!(
            e.learned_thesaurus().unwrap(),
            PathBuf::from("/d/kgrep/thesaurus.json")
        );
    }

    #[test]
    fn project_files_are_under_the_project_dir() {
        assert_eq!(
            project_thesaurus(Path::new("/p")),
            PathBuf::from("/p/.kgrep/thesaurus.json")
        );
        assert_eq!(project_kg(Path::new("/p")), PathBuf::from("/p/.kgrep/kg"));
    }
}
