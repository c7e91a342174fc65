//! Helpers shared by unit tests: a seeded random generator (proptest's), so a
//! randomised test fails the same way every time, and an in-memory document.
//! Test builds only.

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

/// A text document as if loaded from `key`: no pages, nothing cut.
pub(crate) fn doc(key: &str, text: impl AsRef<[u8]>) -> crate::document::Document {
    crate::document::Document {
        key: key.to_string(),
        text: text.as_ref().to_vec(),
        pages: None,
        cut: None,
    }
}
