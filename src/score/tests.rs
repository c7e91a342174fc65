//! Unit tests for `score`: how lines and files are scored and selected, one rule at a time.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::search::matcher::TermMatch;
use crate::search::sink::TermLine;

fn weights(n: usize) -> TermWeights {
    TermWeights {
        idf: vec![1.0; n],
        weight: vec![1.0; n],
        slot: (0..n).collect(),
    }
}

fn tl(line: usize, terms: &[(usize, usize, usize)]) -> TermLine {
    TermLine {
        line,
        matches: terms
            .iter()
            .map(|&(term, start, end)| TermMatch { term, start, end })
            .collect(),
    }
}

fn plain(lines: &[TermLine], w: &TermWeights) -> Vec<RankedLine> {
    score_lines(lines, w, &[], false, |_| None)
}

#[test]
fn idf_decreases_with_document_frequency_and_stays_positive() {
    assert!(idf(100, 1) > idf(100, 50));
    assert!(idf(100, 100) > 0.0);
}

#[test]
fn bm25_rewards_frequency_with_saturation_and_penalises_length() {
    let w = [1.0];
    let one = bm25(&[1], 100, 100.0, &w, &w);
    let two = bm25(&[2], 100, 100.0, &w, &w);
    let ten = bm25(&[10], 100, 100.0, &w, &w);
    assert!(two > one && ten > two);
    assert!(
        ten < (BM25_K1 + 1.0) * one,
        "saturates below k1+1 times one hit"
    );
    assert!(bm25(&[1], 1000, 100.0, &w, &w) < one);
    assert_eq!(bm25(&[0], 100, 100.0, &w, &w), 0.0);
}

#[test]
fn path_matches_count() {
    let terms = crate::query::analyze("cookie jar").terms;
    assert_eq!(
        path_terms("src/requests/cookies.py", &terms),
        vec![true, false]
    );
    let w = weights(2);
    let with = file_score(&[1, 0], 100, 100.0, "src/cookies.py", &terms, &w);
    let without = file_score(&[1, 0], 100, 100.0, "src/other.py", &terms, &w);
    assert!(with > without);
}

#[test]
fn path_matches_hold_file_after_file_whatever_came_before() {
    // The words of paths are kept between files (per thread): each file
    // still gets its own.
    let terms = crate::query::analyze("cookie jar").terms;
    let cases = [
        ("src/cookies/jar.py", vec![true, true]),
        ("src/cookies/other.py", vec![true, false]),
        ("src/jar/other.py", vec![false, true]),
        ("src/cookies/jar.py", vec![true, true]),
        ("jar.py", vec![false, true]),
        ("src/plain.py", vec![false, false]),
    ];
    for (key, want) in &cases {
        assert_eq!(&path_terms(key, &terms), want, "{key}");
    }
    // Another query over the same paths.
    let terms = crate::query::analyze("plain").terms;
    assert_eq!(path_terms("src/plain.py", &terms), vec![true]);
    assert_eq!(path_terms("src/cookies/jar.py", &terms), vec![false]);
}

#[test]
fn a_files_kind_comes_from_its_own_folders_whatever_came_before() {
    // Folder facts are kept between files (per thread).
    for (key, kind) in [
        ("tests/net/retry.rs", FileKind::Secondary),
        ("src/net/retry.rs", FileKind::Source),
        ("node_modules/x/index.js", FileKind::Generated),
        ("src/x/index.js", FileKind::Source),
        (".github/workflows/ci.yml", FileKind::Config),
        ("src/workflows/ci.rs", FileKind::Source),
        ("tests/net/retry.rs", FileKind::Secondary),
        ("src/net/test_retry.rs", FileKind::Secondary),
        ("Docs/Guide/retry.rs", FileKind::Secondary),
    ] {
        assert_eq!(file_kind(key), kind, "{key}");
    }
}

#[test]
fn secondary_files_rank_lower_unless_asked_for() {
    let terms = crate::query::analyze("retry delay").terms;
    let w = weights(2);
    let src = file_score(&[1, 1], 100, 100.0, "src/retry.py", &terms, &w);
    let test = file_score(&[1, 1], 100, 100.0, "tests/test_retry.py", &terms, &w);
    assert!(src > test);
    let terms = crate::query::analyze("retry delay tests").terms;
    assert!(query_wants_secondary(&terms));
    for (query, wants) in [
        ("where is the retry delay documented", true),
        ("docs for the retry delay", true),
        ("the documentation for retries", true),
        ("where is the title of a document read", false),
        ("where is the command history saved", false),
        ("which specs cover the retry delay", true),
        ("follow --color without spec", false),
    ] {
        let thesaurus = crate::thesaurus::builtin::load();
        let terms = crate::query::analyze_with(query, &thesaurus).terms;
        assert_eq!(query_wants_secondary(&terms), wants, "{query}");
    }
    for secondary in [
        "HISTORY.md",
        "docs/api.rst",
        "PKG-INFO",
        "src/x.egg-info/PKG-INFO",
        "src/test/redirect.rs",
        "CHANGELOG",
    ] {
        assert!(is_secondary_path(secondary), "{secondary}");
    }
    for primary in [
        "src/requests/sessions.py",
        "src/protest.rs",
        "src/latest.rs",
    ] {
        assert!(!is_secondary_path(primary), "{primary}");
    }
}

#[test]
fn neighbours_count_with_decay_and_merged_identifiers_raise_a_line() {
    let w = weights(2);
    let lines = vec![
        tl(1, &[(0, 0, 3)]),
        tl(2, &[(1, 0, 5)]),
        tl(40, &[(0, 0, 3)]),
        tl(60, &[(0, 0, 3), (1, 4, 9)]),
    ];
    let scored = score_lines(&lines, &w, &[], false, |n| {
        (n == 60).then_some(b"max_redirects".as_slice())
    });
    assert!(scored[0].score.near > 0.0, "a neighbour's term counts");
    assert_eq!(scored[2].score.near, 0.0, "nothing within the passage");
    assert!(scored[0].score.total > scored[2].score.total);
    assert!(
        scored[3].score.merged > 0.0,
        "max_redirects-style identifier"
    );
    assert!(scored[3].score.total > scored[0].score.total);
    assert!(near_share(1) > near_share(5) && near_share(5) > near_share(PASSAGE_LINES));
    assert_eq!(near_share(PASSAGE_LINES + 1), 0.0);
    assert_eq!(near_share(0), 0.0);
}

#[test]
fn words_separated_by_a_space_are_not_an_identifier() {
    let w = weights(2);
    let lines = [tl(1, &[(0, 0, 3), (1, 4, 9)])];
    let prose = score_lines(&lines, &w, &[], false, |_| {
        Some(b"max redirects".as_slice())
    });
    assert_eq!(prose[0].score.merged, 0.0);
}

#[test]
fn synonyms_of_one_word_count_once_per_line() {
    // terms 0 and 1 share slot 0 (a word and its synonym); term 2 is slot 1.
    let w = TermWeights {
        idf: vec![1.0; 3],
        weight: vec![1.0, 0.6, 1.0],
        slot: vec![0, 0, 1],
    };
    let both = plain(&[tl(1, &[(0, 0, 3), (1, 10, 13)])], &w);
    let one = plain(&[tl(1, &[(0, 0, 3)])], &w);
    assert_eq!(both[0].score.terms, one[0].score.terms);
    let syn = plain(&[tl(1, &[(1, 0, 3)])], &w);
    assert!(
        syn[0].score.terms < one[0].score.terms,
        "exact word beats synonym"
    );
    let two_slots = plain(&[tl(1, &[(0, 0, 3), (2, 10, 13)])], &w);
    assert!(two_slots[0].score.terms > both[0].score.terms);
    assert_eq!(w.total(), 2.0);
}

#[test]
fn definitions_comments_and_tests_weigh_differently() {
    let w = weights(1);
    let text = b"def foo():\n    foo()\n    # foo here\n#[cfg(test)]\nmod tests {\n    fn foo() {}\n}\nfoo()";
    let kinds = classify_lines(text);
    let lines: Vec<TermLine> = [1, 2, 3, 6, 8]
        .iter()
        .map(|&n| tl(n, &[(0, 0, 3)]))
        .collect();
    let s = score_lines(&lines, &w, &kinds, false, |_| None);
    let total = |n: usize| s.iter().find(|l| l.line == n).unwrap().score.total;
    assert!(total(1) > total(2), "definition bonus");
    assert!(total(2) > total(3), "code beats comment");
    assert!(total(6) < total(8), "test code is discounted");
    let wants = score_lines(&lines, &w, &kinds, true, |_| None);
    assert!(wants.iter().find(|l| l.line == 6).unwrap().score.total >= total(8));
}

#[test]
fn a_line_that_branches_on_the_words_beats_one_that_mentions_them() {
    let w = weights(1);
    let text = b"fn check(retries: u32) {\n    log(retries);\n    if retries > 3 {\n        stop();\n    }\n}\n";
    let kinds = classify_lines(text);
    let lines = [tl(2, &[(0, 8, 15)]), tl(3, &[(0, 7, 14)])];
    let s = score_lines(&lines, &w, &kinds, false, |_| None);
    let factor = |n: usize| s.iter().find(|l| l.line == n).unwrap().score.factor;
    assert_eq!(factor(2), 1.0);
    assert_eq!(factor(3), lines::BRANCH_FACTOR);
    assert!(s[1].score.total > s[0].score.total);
}

/// One label of every line of `text`, in order.
fn label(text: &str, of: impl Fn(&LineKind) -> bool) -> Vec<bool> {
    classify_lines(text.as_bytes()).iter().map(of).collect()
}

#[test]
fn line_kinds() {
    let text = "/* block\n still */\ncode();\n\"\"\"doc\nstring\"\"\"\n# comment\n#include <x>\n#[derive(Debug)]\n// c\n * margin\n";
    assert_eq!(
        label(text, |k| k.comment),
        vec![true, true, false, true, true, true, false, false, true, true, false]
    );
    let py = "class Foo:\n    def test_a(self):\n        x = 1\n\n        y = 2\n    def real(self):\n        pass\n";
    assert_eq!(
        label(py, |k| k.test),
        vec![false, true, true, true, true, false, false, false]
    );
    let rs =
        "#[cfg(test)]\nmod tests;\nfn real() {}\n#[test]\nfn t() {\n    a();\n}\nfn after() {}\n";
    assert_eq!(
        label(rs, |k| k.test),
        vec![true, true, false, true, true, true, true, false, false]
    );
    let blocks: Vec<u32> = classify_lines(
        b"impl A {\n    /// Docs.\n    #[inline]\n    fn f() {\n        x();\n    }\n}\n",
    )
    .iter()
    .map(|k| k.block)
    .collect();
    assert_eq!(
        blocks,
        vec![1, 4, 4, 4, 4, 4, 1, 0],
        "doc comments belong to the definition below"
    );
    assert!(is_definition(b"    def resolve_redirects(self, resp):"));
    assert!(is_definition(b"pub fn connect() {"));
    assert!(!is_definition(b"    x = connect()"));
}

fn ranked(haystack: usize, score: f64, lines: &[(usize, u32, f64)]) -> RankedFile {
    RankedFile {
        haystack,
        file_score: 1.0,
        prior: 1.0,
        score,
        lines: lines
            .iter()
            .map(|&(line, block, total)| RankedLine {
                line,
                block,
                slots: 0,
                near_slots: 0,
                comment: false,
                score: LineScore {
                    total,
                    ..Default::default()
                },
            })
            .collect(),
        ..RankedFile::default()
    }
}

#[test]
fn selection_shows_the_best_place_in_full_and_runners_up_briefly() {
    // File 7: best line 10 in the function starting at 8; 12 and 20 in the same
    // function; 11 is adjacent to 10; 50 and 90 are other places (90 weak).
    let top = ranked(
        7,
        10.0,
        &[
            (10, 8, 5.0),
            (11, 8, 4.9),
            (12, 8, 2.0),
            (20, 8, 1.5),
            (50, 40, 4.0),
            (90, 80, 0.5),
        ],
    );
    let close = ranked(3, 9.5, &[(5, 1, 3.0), (9, 1, 2.0)]);
    let runner = ranked(4, 8.5, &[(30, 0, 2.0), (31, 0, 1.9)]);
    let unsure_only = ranked(6, 7.0, &[(2, 0, 2.0)]);
    let weak = ranked(5, 5.0, &[(1, 0, 9.0)]);
    let files = vec![top, close, runner, unsure_only, weak];
    assert_eq!(
        select(&files, 100),
        vec![(7, vec![10, 12, 20, 50]), (3, vec![5, 9]), (4, vec![30])],
        "best place in full, a close runner-up in full, a runner-up once, weaker files not at all"
    );
    // Unsure of the first file, the runners-up down to 0.6 of it are shown
    // too, once each.
    assert_eq!(
        select_unsure(&files, 100, None),
        vec![
            (7, vec![10, 12, 20, 50]),
            (3, vec![5, 9]),
            (4, vec![30]),
            (6, vec![2])
        ],
    );
    // A cap keeps the top file's best line, then the best lines of all of
    // them: its other place (4.0) before its weaker function lines, the close
    // file's best (3.0) before them too.
    assert_eq!(select(&files, 2), vec![(7, vec![10, 50])]);
    assert_eq!(select(&files, 3), vec![(7, vec![10, 50]), (3, vec![5])]);
    // The top file's best line stays even when a runner-up's lines score
    // higher: it is the ranking's answer.
    let strong = ranked(3, 9.5, &[(5, 1, 8.0), (9, 1, 7.0)]);
    let with_strong = vec![files[0].clone(), strong];
    assert_eq!(select(&with_strong, 2), vec![(7, vec![10]), (3, vec![5])]);
    assert!(select(&[], 0).is_empty());
    let everything = select(&files, 0);
    assert_eq!(everything.len(), 5, "0 shows every ranked file");
    assert_eq!(
        everything[0],
        (7, vec![10, 11, 12, 20, 50]),
        "all strong lines, weak 90 cut"
    );
}

#[test]
fn top_level_lines_are_separate_places() {
    let file = ranked(
        1,
        1.0,
        &[(3, 0, 5.0), (20, 0, 4.0), (40, 0, 3.5), (60, 0, 3.2)],
    );
    assert_eq!(
        select(&[file], 100),
        vec![(1, vec![3, 20, 40])],
        "best line and two other places"
    );
}

#[test]
fn ranking_is_deterministic_on_ties() {
    let mk = |h| RankedFile {
        haystack: h,
        file_score: 1.0,
        prior: 1.0,
        score: 1.0,
        lines: vec![],
        ..RankedFile::default()
    };
    let mut a = vec![mk(2), mk(1), mk(3)];
    sort_files(&mut a, |h| format!("f{h}"));
    assert_eq!(
        a.iter().map(|f| f.haystack).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
}

#[test]
fn query_words_in_a_defined_name_outweigh_the_same_words_at_a_call_site() {
    let w = weights(2);
    let text = b"def find_app(module):\n    x = find_app(module)\n";
    let mut kinds = classify_lines(text);
    let all: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    name_definitions(&mut kinds, [1, 2], |n| all.get(n - 1).copied());
    assert_eq!(kinds[0].name, Some((4, 12)));
    assert_eq!(kinds[1].name, None);
    let lines = vec![
        tl(1, &[(0, 4, 8), (1, 9, 12)]),
        tl(2, &[(0, 8, 12), (1, 13, 16)]),
    ];
    let s = score_lines(&lines, &w, &kinds, false, |_| None);
    assert!(s[0].score.name > 0.0 && s[1].score.name == 0.0);
    assert!(s[0].score.total > 1.5 * s[1].score.total, "{s:?}");
}

#[test]
fn a_query_word_in_the_file_name_counts_more_than_in_a_folder() {
    let terms = crate::query::analyze("hyperlink paths").terms;
    let w = weights(terms.len());
    let named = file_score(&[0; 2], 100, 100.0, "src/hyperlink.rs", &terms, &w);
    let folder = file_score(&[0; 2], 100, 100.0, "src/hyperlink/mod.rs", &terms, &w);
    let neither = file_score(&[0; 2], 100, 100.0, "src/output.rs", &terms, &w);
    assert!(
        named > folder && folder > neither,
        "{named} {folder} {neither}"
    );
}

#[test]
fn files_holding_a_learned_answer_come_first_in_their_order() {
    let with_slots = |h: usize, slots: u64| {
        let mut f = ranked(h, 10.0 - h as f64, &[(1, 0, 1.0)]);
        f.lines[0].slots = slots;
        f
    };
    let mut files = vec![
        with_slots(0, 0b011),
        with_slots(1, 0b100),
        with_slots(2, 0b001),
        with_slots(3, 0b101),
    ];
    answers_first(&mut files, 0b100);
    let order: Vec<usize> = files.iter().map(|f| f.haystack).collect();
    assert_eq!(order, vec![1, 3, 0, 2]);
    answers_first(&mut files, 0);
    assert_eq!(files[0].haystack, 1, "no answer: nothing moves");
}

/// A unit of a test file: lines `start..=end`, named on `def`, ranked `total`.
fn unit(start: usize, def: usize, end: usize, total: f64) -> unit::RankedUnit {
    unit::RankedUnit {
        span: unit::UnitSpan {
            shape: unit::Shape::Callable,
            kind: "function",
            name: None,
            start_line: start,
            end_line: end,
            def_line: def,
            test: false,
            bodiless: false,
            parent: None,
            branches: 0,
        },
        index: 0,
        slots: 0,
        score: unit::UnitScore {
            total,
            ..unit::UnitScore::default()
        },
        callees: Vec::new(),
    }
}

#[test]
fn a_unit_is_printed_from_its_definition_then_its_body_when_a_doc_line_scores_best() {
    // Unit 5-20 (named on 8): its doc line 6 scores best, then line 12. Unit
    // 30-40 (named on 33): only its doc line 31 and line 36 hold terms.
    let mut top = ranked(
        1,
        10.0,
        &[(6, 0, 5.0), (12, 8, 3.0), (31, 0, 4.0), (36, 33, 1.0)],
    );
    top.units = vec![unit(5, 8, 20, 9.0), unit(30, 33, 40, 8.0)];
    // A runner-up shown briefly: its unit's best line is a doc line too.
    let mut brief = ranked(2, 8.5, &[(2, 0, 3.0), (6, 4, 1.0)]);
    brief.units = vec![unit(1, 4, 9, 5.0)];
    assert_eq!(
        select(&[top, brief], 100),
        // The best unit: its definition, then its body's lines best first
        // (not the doc line above it, which the definition stands for); the
        // other unit and the runner-up by their definitions, not the
        // comments above them.
        vec![(1, vec![8, 12, 33]), (2, vec![4])]
    );
}

#[test]
fn a_file_shows_its_best_unit_in_full_then_ten_more_units_once_each() {
    // Unit k (k = 0..13) spans lines 100k+1..100k+50, is named on 100k+1, and
    // holds one scored line, 100k+10; unit 13 is under half the best unit's
    // score. The best unit is printed from its definition; the next ten by
    // their best line; the eleventh-best waits, and the weak one is cut.
    let lines: Vec<(usize, u32, f64)> = (0..13u32)
        .map(|k| (100 * k as usize + 10, 100 * k + 1, 5.0 - 0.1 * f64::from(k)))
        .collect();
    let mut file = ranked(1, 10.0, &lines);
    file.units = (0..13)
        .map(|k| {
            let total = if k == 12 { 4.0 } else { 9.0 - 0.1 * k as f64 };
            unit(100 * k + 1, 100 * k + 1, 100 * k + 50, total)
        })
        .collect();
    assert_eq!(
        select(&[file], 100),
        vec![(
            1,
            vec![1, 10, 110, 210, 310, 410, 510, 610, 710, 810, 910, 1010]
        )]
    );
}

#[test]
fn a_cap_keeps_the_best_units_definition_though_another_units_line_scores_higher() {
    // The best unit 5-40 (named on 5) holds line 20 (3.0); the second unit
    // 50-60, weaker as a unit, is named on line 50, which scores 6.0 (its name
    // holds the words). Capped at one line, the line kept is the answer: the
    // best unit's definition, not the second unit's higher-scored line.
    let mut top = ranked(1, 10.0, &[(20, 5, 3.0), (50, 50, 6.0)]);
    top.units = vec![unit(5, 5, 40, 9.0), unit(50, 50, 60, 6.0)];
    assert_eq!(select(std::slice::from_ref(&top), 1), vec![(1, vec![5])]);
    // Uncapped, both units are shown.
    assert_eq!(select(&[top], 100), vec![(1, vec![5, 20, 50])]);
}

#[test]
fn a_cap_keeps_the_best_units_first_body_lines_before_other_units_names() {
    // The best unit 5-40 (named on 5) does the work on lines 12, 20 and 30
    // (2.0, 1.8, 1.6); three more units are named on lines 50, 60, 70, and
    // those lines score higher (4.0, 3.9, 3.8: their names hold the words).
    // The first of them comes close to the best unit (8.0 of 9.0), the
    // others do not (6.0, 5.0). Capped at the default 15 lines, the
    // definition and the first two body lines come first, then the close
    // unit, then the runners-up's lines.
    let lines = [
        (12, 5, 2.0),
        (20, 5, 1.8),
        (30, 5, 1.6),
        (50, 50, 4.0),
        (60, 60, 3.9),
        (70, 70, 3.8),
    ];
    let mut top = ranked(1, 10.0, &lines);
    top.units = vec![
        unit(5, 5, 40, 9.0),
        unit(50, 50, 55, 8.0),
        unit(60, 60, 65, 6.0),
        unit(70, 70, 75, 5.0),
    ];
    // Fourteen more files close behind, each with a line scoring 5.0, fill
    // the rest of the cap: the best unit's third body line (30) and the
    // definitions of the units that are not close give way to them, not its
    // first two body lines or the close unit.
    let mut files = vec![top.clone()];
    for h in 2..16 {
        let mut f = ranked(h, 9.5, &[(3, 3, 5.0)]);
        f.units = vec![unit(3, 3, 9, 8.5)];
        files.push(f);
    }
    let got = select::select_within(&files, 15, None, 15, 0.5);
    assert_eq!(got[0], (1, vec![5, 12, 20, 50]));
    assert_eq!(got.len(), 12, "eleven runners-up keep their line: {got:?}");
    // A smaller cap asks for the best lines by score: the answer's defining
    // line, then the other units' named definitions.
    assert_eq!(
        select(std::slice::from_ref(&top), 4),
        vec![(1, vec![5, 50, 60, 70])]
    );
}

#[test]
fn a_large_cap_keeps_each_runner_ups_line_before_the_first_files_further_units() {
    // The first file: a best unit (1-50, named on 1) with body lines 10, 20,
    // 30, 40, and eight more units named on lines 101..801, every line
    // scoring about 5.0: 13 lines. Four runners-up (within 0.8 of its score,
    // not close enough to be shown in full) each have one line scoring 1.0.
    let mut lines: Vec<(usize, u32, f64)> =
        vec![(10, 1, 4.9), (20, 1, 4.9), (30, 1, 4.9), (40, 1, 4.9)];
    lines.extend((0..9u32).map(|k| (100 * k as usize + 1, 100 * k + 1, 5.0 - 0.01 * f64::from(k))));
    let mut top = ranked(1, 10.0, &lines);
    top.units = (0..9)
        .map(|k| unit(100 * k + 1, 100 * k + 1, 100 * k + 50, 9.0 - 0.1 * k as f64))
        .collect();
    let mut files = vec![top];
    for h in 2..6 {
        let mut f = ranked(h, 8.5, &[(7, 7, 1.0)]);
        f.units = vec![unit(7, 7, 9, 2.0)];
        files.push(f);
    }
    // Capped at 15: every runner-up keeps its line; the cap cuts the first
    // file's two weakest lines instead.
    let got = select::select_within(&files, 15, None, 15, 0.8);
    assert_eq!(got.len(), 5, "{got:?}");
    assert_eq!(got[0].1.len(), 11, "{got:?}");
    assert!(got[1..].iter().all(|(_, l)| l == &vec![7]), "{got:?}");
    // A cap below 15 asks for the best lines by score: the first file's.
    let got = select::select_within(&files, 12, None, 15, 0.8);
    assert_eq!(got.len(), 1, "{got:?}");
}

#[test]
fn a_unit_is_shown_by_its_own_line_not_a_nested_units() {
    // Best unit 1-20 (line 10); second 100-110 (line 105); third 30-90,
    // whose best line, 45, lies in a closure nested in it (40-50, too weak
    // to be shown itself), and whose own best line is 70. The third unit is
    // shown by line 70: where it does its own work.
    let lines = [(10, 1, 3.0), (105, 100, 4.0), (45, 40, 5.0), (70, 30, 2.0)];
    let mut top = ranked(1, 10.0, &lines);
    top.units = vec![
        unit(1, 1, 20, 9.0),
        unit(100, 100, 110, 7.0),
        unit(30, 30, 90, 6.0),
        unit(40, 40, 50, 3.5),
    ];
    assert_eq!(select(&[top], 100), vec![(1, vec![1, 10, 70, 105])]);
}

#[test]
fn a_functions_own_body_lines_come_before_a_nested_units() {
    // Best unit, a function 1-60 (named on 1), with a callback nested in it
    // (10-25) whose six lines outscore the function's own line 40: the
    // function's own line is printed among its body lines, where it does its
    // own work, though seven lines (PLACE_LINES) leave room for only six.
    let mut lines: Vec<(usize, u32, f64)> = (0..6u32)
        .map(|k| (11 + 2 * k as usize, 10, 5.0 - 0.1 * f64::from(k)))
        .collect();
    lines.push((40, 1, 2.0));
    let mut top = ranked(1, 10.0, &lines);
    top.units = vec![unit(1, 1, 60, 9.0), unit(10, 10, 25, 3.0)];
    assert_eq!(
        select(std::slice::from_ref(&top), 100),
        vec![(1, vec![1, 11, 13, 15, 17, 19, 40])]
    );
    // A class's own lines declare: its methods' lines keep their order by
    // score, and the class's own weak line gives way.
    top.units[0].span.shape = unit::Shape::Container;
    assert_eq!(
        select(std::slice::from_ref(&top), 100),
        vec![(1, vec![1, 11, 13, 15, 17, 19, 21])]
    );
}

#[test]
fn a_unit_right_under_a_printed_line_is_shown_by_its_body() {
    // Best unit 1-20 (named on 1), its line 19 printed. The next unit is
    // named on 21 (its best line, 4.0), too close to 19 to be printed
    // beside it: the unit is shown by its best body line, 30, instead of
    // not at all.
    let lines = [(19, 1, 3.0), (21, 21, 4.0), (30, 21, 2.5), (33, 21, 2.0)];
    let mut top = ranked(1, 10.0, &lines);
    top.units = vec![unit(1, 1, 20, 9.0), unit(21, 21, 40, 8.0)];
    assert_eq!(
        select(std::slice::from_ref(&top), 100),
        vec![(1, vec![1, 19, 30])]
    );
    // With no line of its body clear of the lines before it, it is not shown.
    let close = [(19, 1, 3.0), (21, 21, 4.0), (22, 21, 2.5)];
    let mut top_close = ranked(1, 10.0, &close);
    top_close.units = top.units.clone();
    assert_eq!(select(&[top_close], 100), vec![(1, vec![1, 19])]);
}

#[test]
fn a_unit_nested_in_the_best_is_shown_when_none_of_its_lines_is() {
    // Best unit, a function 1-60 whose own six lines fill its place (with
    // its defining line, PLACE_LINES); a callback nested in it (20-30)
    // scores above half the best unit: it is shown by its best line, 25, as
    // a unit of its own.
    let mut lines: Vec<(usize, u32, f64)> = [3, 5, 7, 9, 11, 40]
        .iter()
        .map(|&n| (n, 1, 5.0 - 0.01 * n as f64))
        .collect();
    lines.push((25, 20, 3.0));
    let mut top = ranked(1, 10.0, &lines);
    top.units = vec![unit(1, 1, 60, 9.0), unit(20, 20, 30, 6.0)];
    let mut weak = top.clone();
    assert_eq!(
        select(std::slice::from_ref(&top), 100),
        vec![(1, vec![1, 3, 5, 7, 9, 11, 25, 40])]
    );
    // A nested unit under half the best unit's score is not shown.
    weak.units[1].score.total = 4.0;
    assert_eq!(select(&[weak], 100), vec![(1, vec![1, 3, 5, 7, 9, 11, 40])]);
}

#[test]
fn the_first_files_second_unit_shows_its_body_too() {
    // Best unit 5-40 (named on 5, line 20 scores 3.0). Second unit 50-90,
    // named on 50 (4.0, its name holds the words); line 80, deep in its body,
    // scores 2.5, at least half the named line's. The first file shows line
    // 80 as well as 50: where in the second unit the work is.
    let lines = [(20, 5, 3.0), (50, 50, 4.0), (80, 50, 2.5)];
    let mut top = ranked(1, 10.0, &lines);
    top.units = vec![unit(5, 5, 40, 9.0), unit(50, 50, 90, 6.0)];
    assert_eq!(
        select(std::slice::from_ref(&top), 100),
        vec![(1, vec![5, 20, 50, 80])]
    );
    // Under half the named line's score, the body line is not shown.
    let weak = [(20, 5, 3.0), (50, 50, 4.0), (80, 50, 1.5)];
    let mut top_weak = ranked(1, 10.0, &weak);
    top_weak.units = top.units.clone();
    assert_eq!(select(&[top_weak], 100), vec![(1, vec![5, 20, 50])]);
    // A runner-up shown in full (within CLOSE_SHARE) shows its units one
    // line each: only the first file pays the extra line.
    let mut second = ranked(2, 9.5, &lines);
    second.units = top.units.clone();
    assert_eq!(
        select(&[top, second], 100),
        vec![(1, vec![5, 20, 50, 80]), (2, vec![5, 20, 50])]
    );
}

#[test]
fn a_local_of_a_struct_type_defines_nothing() {
    let c = "struct known_host {\n    int type;\n};\nstruct known_host *make_host(void) {\n    struct known_host *node;\n    struct stat st = {0};\n    const char *host;\n    static int calls = 0;\n}\n";
    // The struct's definition and the function's are; its locals are not.
    assert_eq!(
        label(c, |k| k.definition),
        [true, false, false, true, false, false, false, false, false, false]
    );
    let js =
        "export const LIMIT = 5\nfunction f() {\n  const x = 5\n  const handler = () => run()\n}\n";
    assert_eq!(
        label(js, |k| k.definition),
        [true, true, false, true, false, false]
    );
    let name = |line: &str| {
        crate::score::symbol::definition_name(line.as_bytes()).map(|(s, e)| line[s..e].to_string())
    };
    assert_eq!(name("    struct known_host *node;"), None);
    assert_eq!(name("struct known_host {"), Some("known_host".into()));
    assert_eq!(name("    struct known_host {"), Some("known_host".into()));
    // A constant of a C or Java type is named past its type's words.
    assert_eq!(
        name("    static final int MAX_RETRIES = 3;"),
        Some("MAX_RETRIES".into())
    );
    assert_eq!(
        name("    static const char *DEFAULT_HOST = \"x\";"),
        Some("DEFAULT_HOST".into())
    );
    assert_eq!(
        name("static char BUFFER_NAME[64];"),
        Some("BUFFER_NAME".into())
    );
    assert_eq!(name("    static int calls = 0;"), None);
    assert_eq!(name("pub const MAX: u32 = 5;"), Some("MAX".into()));
}
