//! Where tool calls may look: the server's roots. A prompt-injected agent
//! must not turn kgrep into a file reader for the whole disk
//! (`paths: ["/etc/passwd"]`, `"../../.ssh/id_rsa"`, a symlink out of the
//! project), so every path a call names must resolve, symlinks included,
//! under a root:
//!
//! - the roots the client declares through MCP `roots` (`roots/list`, asked
//!   again on `notifications/roots/list_changed`), when it declares any;
//! - else the server's working directory.
//!
//! `kgrep --mcp --allow-outside` (or `mcp_allow_outside = true` in the
//! config) lifts the rule. Owns the check and the reading of `file://`
//! root URIs; `tools` asks it before a search, `server` feeds it the
//! client's roots. Walking never leaves a named folder through a symlink
//! (`walk`), so checking the named paths is enough.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

/// The roots of one server.
#[derive(Clone, Debug)]
pub struct Roots {
    /// The server's working directory (relative paths are resolved against
    /// it), canonical when it can be.
    cwd: PathBuf,
    /// The roots the client declared (canonical): `None` when it declared
    /// none (the working directory is the root); `Some` of none usable when
    /// every root it named was not a local folder: then nothing is, since
    /// the client asked for a narrower boundary than the working directory.
    declared: Option<Vec<PathBuf>>,
    /// `--allow-outside`: no path is refused.
    allow_outside: bool,
}

impl Roots {
    /// The roots of a server started in `cwd`.
    pub fn new(cwd: &Path, allow_outside: bool) -> Roots {
        Roots {
            cwd: canonical(cwd),
            declared: None,
            allow_outside,
        }
    }

    /// The roots a call is checked against.
    pub fn roots(&self) -> Vec<PathBuf> {
        match &self.declared {
            None => vec![self.cwd.clone()],
            Some(declared) => declared.clone(),
        }
    }

    /// Replaces the client's roots with those of a `roots/list` result
    /// (`{"roots": [{"uri": "file:///…"}]}`); URIs that are not local
    /// `file://` folders are skipped. An empty list declares none (the
    /// working directory stays the root); a list of which none is usable
    /// leaves no root at all, never the wider working directory. Returns how
    /// many were taken.
    pub fn declare(&mut self, result: &Value) -> usize {
        let listed: Vec<&Value> = result
            .get("roots")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .collect();
        if listed.is_empty() {
            self.declared = None;
            return 0;
        }
        let usable: Vec<PathBuf> = listed
            .iter()
            .filter_map(|r| r.get("uri").and_then(Value::as_str))
            .filter_map(file_uri_path)
            .filter(|p| p.is_dir())
            .map(|p| canonical(&p))
            .collect();
        let taken = usable.len();
        self.declared = Some(usable);
        taken
    }

    /// `Err` with the sentence a call's error result says when no root is
    /// left to search (the client named roots, none of them a local folder).
    pub fn usable(&self) -> Result<(), String> {
        if self.allow_outside || !self.roots().is_empty() {
            return Ok(());
        }
        Err(
            "The client's roots name no local folder this server can search: declare a \
             file:// folder root, or start kgrep --mcp --allow-outside to search anywhere."
                .to_string(),
        )
    }

    /// The paths a call without `paths` searches: the working directory when
    /// it is under a root, else the roots themselves.
    pub fn default_paths(&self) -> Vec<PathBuf> {
        if self.allow_outside || self.is_under_a_root(&self.cwd) {
            vec![PathBuf::from(".")]
        } else {
            self.roots()
        }
    }

    /// `Ok` when `path` (as a call named it, relative to the working
    /// directory) resolves under a root as the system resolves it, symlinks
    /// and `..` in their order (`out/..` is the parent of where the link
    /// `out` points); otherwise the sentence the call's error result says.
    /// Past the part that exists, a path is judged by its name, so a name
    /// under a link out is outside whether or not it exists there.
    pub fn check(&self, path: &Path) -> Result<(), String> {
        if self.allow_outside {
            return Ok(());
        }
        let resolved = resolved(&self.cwd.join(path));
        if self.is_under_a_root(&resolved) {
            return Ok(());
        }
        let roots: Vec<String> = self
            .roots()
            .iter()
            .map(|r| r.display().to_string())
            .collect();
        Err(format!(
            "Path '{}' is outside the roots this server searches ({}): name a path under them, \
             or start kgrep --mcp --allow-outside (or set mcp_allow_outside = true) to search anywhere.",
            path.display(),
            roots.join(", ")
        ))
    }

    fn is_under_a_root(&self, path: &Path) -> bool {
        self.roots().iter().any(|root| path.starts_with(root))
    }
}

/// `path` canonical (symlinks resolved) when it exists, else as given.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// An absolute path as the system would open it: its longest part that
/// exists made canonical (each symlink followed before the `..` after it,
/// as opening the path does), then the rest by name. Checking the name
/// with its `..` resolved first let `link_out/..` pass for the working
/// directory while it opens the link target's parent.
fn resolved(path: &Path) -> PathBuf {
    let parts: Vec<Component> = path.components().collect();
    for cut in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..cut].iter().collect();
        if let Ok(real) = head.canonicalize() {
            let tail: PathBuf = parts[cut..].iter().collect();
            return lexical(&real.join(tail));
        }
    }
    lexical(path)
}

/// An absolute path with `.` and `..` resolved by name.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The local path of a `file://` URI (`file:///home/a%20b` → `/home/a b`);
/// `None` for another scheme or a remote host.
pub fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let path = match rest.strip_prefix("localhost") {
        Some(after) => after,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?
        .into_owned();
    Some(PathBuf::from(decoded))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_under_the_working_directory_pass_and_others_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join("src")).unwrap();
        let roots = Roots::new(&project, false);
        assert!(roots.check(Path::new(".")).is_ok());
        assert!(roots.check(Path::new("src")).is_ok());
        assert!(roots.check(Path::new("src/../src/missing.rs")).is_ok());
        for outside in ["/etc/passwd", "..", "../../../../etc/passwd", "src/../../x"] {
            let err = roots.check(Path::new(outside)).unwrap_err();
            assert!(
                err.starts_with(&format!("Path '{outside}' is outside")),
                "{err}"
            );
            assert!(
                !err.trim_end_matches('.').contains(". "),
                "one sentence: {err}"
            );
        }
        assert!(Roots::new(&project, true).check(Path::new("/etc")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_out_is_outside() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let secret = dir.path().join("secret");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&secret).unwrap();
        std::os::unix::fs::symlink(&secret, project.join("link")).unwrap();
        let roots = Roots::new(&project, false);
        assert!(roots.check(Path::new("link")).is_err());
        // The system follows `link` before the `..` after it: the secret's
        // parent, not the project, whatever the names say.
        for path in ["link/..", "link/../secret", "link/missing"] {
            assert!(roots.check(Path::new(path)).is_err(), "{path}");
        }
        // Back into the project through the link's parent is the project.
        assert!(roots.check(Path::new("link/../project/x")).is_ok());
        assert_eq!(
            resolved(&project.join("link/../x/../y")),
            dir.path().canonicalize().unwrap().join("y")
        );
    }

    #[test]
    fn declared_roots_replace_the_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b dir");
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let mut roots = Roots::new(&a, false);
        let uri = format!("file://{}", b.display()).replace(' ', "%20");
        let taken = roots.declare(&json!({"roots": [{"uri": uri}, {"uri": "https://x/y"}]}));
        assert_eq!(taken, 1);
        assert!(roots.check(&b).is_ok());
        assert!(roots.check(Path::new(".")).is_err());
        assert_eq!(roots.default_paths(), vec![b.canonicalize().unwrap()]);
        // An empty list falls back to the working directory.
        roots.declare(&json!({"roots": []}));
        assert!(roots.check(Path::new(".")).is_ok());
        // A list none of which is a local folder leaves no root at all.
        let file = a.join("f.txt");
        std::fs::write(&file, "x").unwrap();
        let taken =
            roots.declare(&json!({"roots": [{"uri": format!("file://{}", file.display())}]}));
        assert_eq!(taken, 0);
        assert!(roots.usable().is_err());
        assert!(roots.check(Path::new(".")).is_err());
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            file_uri_path("file:///home/a%20b/c"),
            Some(PathBuf::from("/home/a b/c"))
        );
        assert_eq!(
            file_uri_path("file://localhost/srv"),
            Some(PathBuf::from("/srv"))
        );
        assert_eq!(file_uri_path("file://server/share"), None);
        assert_eq!(file_uri_path("http://x/"), None);
    }
}
