//! The ANSI colours kgrep prints and the two ways to apply them: the SGR
//! sequences rich emits for rlmgrep's styles (rlmgrep's layout), and
//! ripgrep's palette written as rg writes it (its flat lines and lists).
//!
//! Owns the escape sequences and wrapping text in them, and the [`Palette`]
//! of the four fields ripgrep colours (`--colors`). Does not decide whether
//! to colour (that is `--color`, resolved by `cli::plan`) nor what gets which
//! colour (the printers: [`super::grep`], [`super::answer`]).

use std::io::{self, Write};

use termcolor::WriteColor;

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

/// The colours of the four fields ripgrep colours, as SGR sequences: rg's
/// defaults (magenta paths, green line numbers, bold red matches, plain
/// columns and offsets) as its `--colors` specs change them. An empty
/// sequence is a field with no colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Paths: headings, listed files, the path of a flat line.
    pub path: String,
    /// Line numbers.
    pub line: String,
    /// Columns and byte offsets (rg colours both as columns).
    pub column: String,
    /// Matched text.
    pub matched: String,
}

impl Default for Palette {
    fn default() -> Palette {
        Palette {
            path: MAGENTA.to_string(),
            line: GREEN.to_string(),
            column: String::new(),
            matched: MATCH.to_string(),
        }
    }
}

impl Palette {
    /// rg's defaults with each `--colors` spec applied in turn, parsed and
    /// merged by grep-printer as rg does (`match:fg:blue`, `line:none`,
    /// `path:style:underline`, `match:bg:0x10`, `column:fg:10,20,30`); a bad
    /// spec's error is rg's message.
    pub fn from_specs(specs: &[String]) -> Result<Palette, String> {
        let mut all = grep_printer::default_color_specs();
        for spec in specs {
            all.push(
                spec.parse()
                    .map_err(|e: grep_printer::ColorError| e.to_string())?,
            );
        }
        let merged = grep_printer::ColorSpecs::new(&all);
        Ok(Palette {
            path: sgr(merged.path()),
            line: sgr(merged.line()),
            column: sgr(merged.column()),
            matched: sgr(merged.matched()),
        })
    }
}

/// The SGR bytes termcolor writes for `spec` (as rg's printer sets a colour),
/// without the reset it writes before them: the painters write that.
fn sgr(spec: &termcolor::ColorSpec) -> String {
    let mut spec = spec.clone();
    spec.set_reset(false);
    let mut out = termcolor::Ansi::new(Vec::new());
    // Writing to a Vec cannot fail; a failure would leave the field plain.
    if out.set_color(&spec).is_err() {
        return String::new();
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// `text` wrapped in an SGR colour and a reset, or unchanged without colour
/// (or with an empty colour: a field `--colors TYPE:none` cleared).
pub fn paint(text: &str, sgr: &str, color: bool) -> String {
    if color && !sgr.is_empty() {
        format!("{sgr}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// Raw bytes, wrapped in an SGR colour and a reset when `color` (and the
/// colour is not empty).
pub fn write_painted(out: &mut dyn Write, bytes: &[u8], sgr: &str, color: bool) -> io::Result<()> {
    if color && !sgr.is_empty() {
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
        out.write_all(sgr.as_bytes())?;
        out.write_all(bytes)?;
        out.write_all(RESET.as_bytes())
    } else {
        out.write_all(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_is_rgs_defaults_as_its_specs_change_them() {
        assert_eq!(Palette::from_specs(&[]), Ok(Palette::default()));
        let specs: Vec<String> = [
            "match:fg:blue",
            "line:none",
            "column:fg:0x10",
            "path:style:underline",
            "path:bg:10,20,30",
        ]
        .map(String::from)
        .to_vec();
        // Checked with `rg --colors … --color always`: termcolor's bytes, bold
        // kept from the default match style.
        assert_eq!(
            Palette::from_specs(&specs),
            Ok(Palette {
                path: "\x1b[4m\x1b[35m\x1b[48;2;10;20;30m".to_string(),
                line: String::new(),
                column: "\x1b[38;5;16m".to_string(),
                matched: "\x1b[1m\x1b[34m".to_string(),
            })
        );
        assert_eq!(
            Palette::from_specs(&["path:fg:purple".to_string()]),
            Err(
                "unrecognized color name 'purple'. Choose from: black, blue, \
                 green, red, cyan, magenta, yellow, white"
                    .to_string()
            )
        );
    }

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
