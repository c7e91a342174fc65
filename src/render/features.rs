//! `--features` output: the candidate files of a natural-language query with
//! their ranking feature vectors, as JSON Lines for `tests/bench/train/`.
//!
//! Owns the layout only: a first line `{"names": [...], "unit_names": [...]}`,
//! then one `{"path", "rank", "f", "units"}` object a candidate in the order
//! given; `units` holds the best units of the first few candidates (`kind`,
//! `name`, `start`, `end`, `def`, `f`), empty for the others. Does not compute
//! the features (`score::features`, `score::unit_features`) or choose the
//! order.

use std::io::{self, Write};

/// One candidate: its path, its feature vector (in `names` order) and its
/// best units'.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureRow {
    pub path: String,
    pub features: Vec<f64>,
    pub units: Vec<UnitRow>,
}

/// One unit of a candidate: what and where it is (1-based lines), and its
/// feature vector (in `unit_names` order).
#[derive(Clone, Debug, PartialEq)]
pub struct UnitRow {
    pub kind: &'static str,
    pub name: Option<String>,
    pub start: usize,
    pub end: usize,
    pub def: usize,
    pub features: Vec<f64>,
}

/// Writes the names line, then each row with its place (0 = first).
pub fn write_features(
    out: &mut impl Write,
    names: &[&str],
    unit_names: &[&str],
    rows: &[FeatureRow],
) -> io::Result<()> {
    writeln!(
        out,
        "{}",
        serde_json::json!({ "names": names, "unit_names": unit_names })
    )?;
    for (rank, row) in rows.iter().enumerate() {
        let units: Vec<serde_json::Value> = row
            .units
            .iter()
            .map(|u| {
                serde_json::json!({
                    "kind": u.kind,
                    "name": u.name,
                    "start": u.start,
                    "end": u.end,
                    "def": u.def,
                    "f": u.features,
                })
            })
            .collect();
        let line = serde_json::json!({
            "path": row.path,
            "rank": rank,
            "f": row.features,
            "units": units,
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
                units: vec![UnitRow {
                    kind: "function",
                    name: Some("retry".into()),
                    start: 3,
                    end: 9,
                    def: 4,
                    features: vec![0.5],
                }],
            },
            FeatureRow {
                path: "b \"q\".py".into(),
                features: vec![-2.0, 3.0],
                units: Vec::new(),
            },
        ];
        let mut out = Vec::new();
        write_features(&mut out, &["bm25", "prior"], &["name"], &rows).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            lines[0],
            serde_json::json!({"names": ["bm25", "prior"], "unit_names": ["name"]})
        );
        assert_eq!(
            lines[1]["units"],
            serde_json::json!([{"kind": "function", "name": "retry", "start": 3, "end": 9, "def": 4, "f": [0.5]}])
        );
        assert_eq!(
            lines[2],
            serde_json::json!({"path": "b \"q\".py", "rank": 1, "f": [-2.0, 3.0], "units": []})
        );
        assert_eq!(lines.len(), 3);
    }
}
