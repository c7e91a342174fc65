//! `--features` output: the candidate files of a natural-language query with
//! their ranking feature vectors, as JSON Lines for `tests/bench/train/`.
//!
//! Owns the layout only: a first line `{"names": [...]}`, then one
//! `{"path", "rank", "f"}` object a candidate in the order given. Does not
//! compute the features (`score::features`) or choose the order.

use std::io::{self, Write};

/// One candidate: its path and its feature vector (in `names` order).
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureRow {
    pub path: String,
    pub features: Vec<f64>,
}

/// Writes the names line, then each row with its place (0 = first).
pub fn write_features(out: &mut impl Write, names: &[&str], rows: &[FeatureRow]) -> io::Result<()> {
    writeln!(out, "{}", serde_json::json!({ "names": names }))?;
    for (rank, row) in rows.iter().enumerate() {
        let line = serde_json::json!({
            "path": row.path,
            "rank": rank,
            "f": row.features,
        });
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_names_line_then_one_object_a_row_in_order() {
        let rows = [
            FeatureRow {
                path: "src/a.rs".into(),
                features: vec![1.5, 0.0],
            },
            FeatureRow {
                path: "b \"q\".py".into(),
                features: vec![-2.0, 3.0],
            },
        ];
        let mut out = Vec::new();
        write_features(&mut out, &["bm25", "prior"], &rows).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0], serde_json::json!({"names": ["bm25", "prior"]}));
        assert_eq!(
            lines[2],
            serde_json::json!({"path": "b \"q\".py", "rank": 1, "f": [-2.0, 3.0]})
        );
        assert_eq!(lines.len(), 3);
    }
}
