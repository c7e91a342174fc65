//! Helpers shared by unit tests: a seeded random generator (proptest's), so a
//! randomised test fails the same way every time, an in-memory document, and
//! readers of a generated model's JSON manifest. Test builds only.

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// proptest's XorShift generator seeded from `seed`.
pub(crate) fn rng(seed: u64) -> TestRng {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..].copy_from_slice(&seed.rotate_left(32).to_le_bytes());
    TestRng::from_seed(RngAlgorithm::XorShift, &bytes)
}

/// A number below `n` (0 when `n` is 0).
pub(crate) fn below(rng: &mut TestRng, n: usize) -> usize {
    rng.random_range(0..n.max(1))
}

/// Up to `max` (fewer than `max`) pieces drawn from `pieces`, appended to
/// `bytes`: random text made of the cases a test cares about.
pub(crate) fn push_pieces(rng: &mut TestRng, bytes: &mut Vec<u8>, pieces: &[&[u8]], max: usize) {
    for _ in 0..below(rng, max) {
        bytes.extend_from_slice(pieces[below(rng, pieces.len())]);
    }
}

/// A text document as if loaded from `key`: no pages, nothing cut.
pub(crate) fn doc(key: &str, text: impl AsRef<[u8]>) -> crate::document::Document {
    crate::document::Document {
        key: key.to_string(),
        text: text.as_ref().to_vec(),
        pages: None,
        cut: None,
        offsets: Default::default(),
        terminator: b'\n',
        binary: None,
    }
}

/// A manifest's list of strings.
#[allow(clippy::unwrap_used)]
pub(crate) fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

/// A manifest's list of numbers.
#[allow(clippy::unwrap_used)]
pub(crate) fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// A manifest's number, as a list of one.
#[allow(clippy::unwrap_used)]
pub(crate) fn one(v: &serde_json::Value) -> Vec<f64> {
    vec![v.as_f64().unwrap()]
}

/// The same numbers: serde_json reads a float to within an ulp of Rust's own
/// parser.
pub(crate) fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-12 * x.abs().max(1.0))
}

/// A manifest's record of its data: each repository's `count` (`queries`,
/// `questions`) adds up to the manifest's own, each names a full commit under
/// `commit`, and the validation was grouped as `grouping`.
#[allow(clippy::unwrap_used)]
pub(crate) fn check_provenance(
    manifest: &serde_json::Value,
    count: &str,
    commit: &str,
    grouping: &str,
) {
    let repos = manifest["repositories"].as_array().unwrap();
    let total: u64 = repos.iter().map(|r| r[count].as_u64().unwrap()).sum();
    assert_eq!(Some(total), manifest[count].as_u64());
    assert!(repos
        .iter()
        .all(|r| r[commit].as_str().is_some_and(|c| c.len() == 40)));
    assert_eq!(manifest["validation"]["grouping"].as_str(), Some(grouping));
}
