//! The ANSI colours kgrep prints and the two ways to apply them: the SGR
//! sequences rich emits for rlmgrep's styles (rlmgrep's layout), and
//! ripgrep's palette written as rg writes it (its flat lines and lists).
//!
//! Owns the escape sequences and wrapping text in them. Does not decide
//! whether to colour (that is `--color`, resolved by `cli::plan`) nor what
//! gets which colour (the printers: [`super::grep`], [`super::answer`]).

use std::io::{self, Write};

/// Headers (`===== Matches =====`, `===== Answer =====`).
pub const CYAN: &str = "\x1b[36m";
/// File headings.
pub const MAGENTA: &str = "\x1b[35m";
/// Line numbers.
pub const GREEN: &str = "\x1b[32m";
/// Back to the terminal's default.
pub const RESET: &str = "\x1b[0m";
/// ripgrep's default style for matched text: bold red.
pub const MATCH: &str = "\x1b[1m\x1b[31m";

/// `text` wrapped in an SGR colour and a reset, or unchanged without colour.
pub fn paint(text: &str, sgr: &str, color: bool) -> String {
    if color {
        format!("{sgr}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// Raw bytes, wrapped in an SGR colour and a reset when `color`.
pub fn write_painted(out: &mut dyn Write, bytes: &[u8], sgr: &str, color: bool) -> io::Result<()> {
    if color {
        out.write_all(sgr.as_bytes())?;
        out.write_all(bytes)?;
        out.write_all(RESET.as_bytes())
    } else {
        out.write_all(bytes)
    }
}

/// How a printer wraps coloured bytes: [`write_painted`] or
/// [`write_rg_painted`].
pub type Painter = fn(&mut dyn Write, &[u8], &str, bool) -> io::Result<()>;

/// Raw bytes coloured as ripgrep 13 writes them (termcolor's writes for rg's
/// colour specs): a reset, the colour, the bytes, a reset. An empty `sgr`
/// is rg's uncoloured field (a column, an offset), still between resets.
pub fn write_rg_painted(
    out: &mut dyn Write,
    bytes: &[u8],
    sgr: &str,
    color: bool,
) -> io::Result<()> {
    if color {
        out.write_all(RESET.as_bytes())?;
    }
    write_painted(out, bytes, sgr, color)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paint_wraps_only_with_colour() {
        assert_eq!(paint("a", CYAN, true), "\x1b[36ma\x1b[0m");
        assert_eq!(paint("a", CYAN, false), "a");
        let mut out = Vec::new();
        write_painted(&mut out, b"\xff", MATCH, true).unwrap_or_default();
        write_painted(&mut out, b"x", GREEN, false).unwrap_or_default();
        assert_eq!(out, b"\x1b[1m\x1b[31m\xff\x1b[0mx");
        let mut out = Vec::new();
        write_rg_painted(&mut out, b"a", MAGENTA, true).unwrap_or_default();
        write_rg_painted(&mut out, b"7", "", true).unwrap_or_default();
        write_rg_painted(&mut out, b"x", GREEN, false).unwrap_or_default();
        assert_eq!(out, b"\x1b[0m\x1b[35ma\x1b[0m\x1b[0m7\x1b[0mx");
    }
}
