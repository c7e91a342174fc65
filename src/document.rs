//! STUB (replaced by the walk branch).
use crate::walk::{Haystack, Source};
#[derive(Clone, Debug)]
pub struct Document {
    pub key: String,
    pub text: Vec<u8>,
    pub pages: Option<Vec<u32>>,
}
impl Document {
    pub fn line_count(&self) -> usize {
        memchr::memchr_iter(b'\n', &self.text).count() + 1
    }
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.text.split(|&b| b == b'\n')
    }
    pub fn line_starts(&self) -> Vec<usize> {
        std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', &self.text).map(|i| i + 1))
            .collect()
    }
}
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    pub text: bool,
}
pub enum Loaded {
    Text(Document),
    Binary,
}
pub const MAX_FILE_BYTES: u64 = 1 << 30;
pub fn load(h: &Haystack, opts: &ReadOptions) -> std::io::Result<Loaded> {
    match &h.source {
        Source::Path(p) => Ok(from_bytes(h.key.clone(), std::fs::read(p)?, false, opts)),
        Source::Stdin(b) => Ok(from_bytes(h.key.clone(), b.clone(), true, opts)),
    }
}
pub fn from_bytes(key: String, bytes: Vec<u8>, _is_stdin: bool, opts: &ReadOptions) -> Loaded {
    if !opts.text && memchr::memchr(0, &bytes).is_some() {
        return Loaded::Binary;
    }
    Loaded::Text(Document {
        key,
        text: bytes,
        pages: None,
    })
}
