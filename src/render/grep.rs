//! STUB (replaced by the render branch).
use crate::document::Document;
pub struct GrepOptions {
    pub before: usize,
    pub after: usize,
    pub max_count: Option<usize>,
    pub tty: bool,
    pub color: bool,
}
pub struct FileResult<'a> {
    pub doc: &'a Document,
    pub lines: Vec<usize>,
}
pub fn write_grep(
    out: &mut dyn std::io::Write,
    files: &[FileResult],
    _opts: &GrepOptions,
) -> std::io::Result<usize> {
    let mut n = 0;
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", crate::walk::heading(&f.doc.key))?;
        let lines: Vec<&[u8]> = f.doc.lines().collect();
        for &l in &f.lines {
            if let Some(t) = lines.get(l - 1) {
                write!(out, "{l}:\t")?;
                out.write_all(t)?;
                writeln!(out)?;
                n += 1;
            }
        }
    }
    Ok(n)
}
