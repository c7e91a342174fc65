//! Writes the document fixtures: `fixtures/documents/` (committed) or a
//! document-heavy tree for the benchmark.
//!
//! ```sh
//! cargo run --example make_documents -- fixtures/documents
//! cargo run --release --example make_documents -- --bench 200 /tmp/kgrep-docs
//! ```
//!
//! Every file is built from code (`src/document/convert/testdoc.rs`): nothing
//! is downloaded. The first form rewrites the committed fixtures; zip and PDF
//! encryption embed no timestamps, but compressed bytes may differ between
//! library versions, so the CLI tests check what the files say, not their bytes.
#![allow(clippy::print_stderr, clippy::unwrap_used)]

#[path = "../src/document/convert/testdoc.rs"]
mod testdoc;

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use testdoc::{w_para, w_table};

/// What the zip-bomb fixture inflates to: one byte past kgrep's per-entry cap
/// (`MAX_ZIP_ENTRY_BYTES`), from about 130 KB on disk.
const BOMB_BYTES: usize = (128 << 20) + 1;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [dir] => fixtures(Path::new(dir)),
        [flag, count, dir] if flag == "--bench" => match count.parse() {
            Ok(count) => bench(Path::new(dir), count),
            Err(_) => return usage(),
        },
        _ => return usage(),
    }
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: make_documents DIR | make_documents --bench COUNT DIR");
    ExitCode::from(2)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

fn fixtures(dir: &Path) {
    let manual = testdoc::pdf(testdoc::MANUAL);
    write(dir, "manual.pdf", &manual);
    write(dir, "report.docx", &report());
    write(
        dir,
        "budget.xlsx",
        &testdoc::xlsx(&[
            (
                "Revenue",
                &[
                    &["Region", "Q1", "Q2"],
                    &["North", "1200", "1350"],
                    &["South", "980", "1010"],
                ],
            ),
            (
                "Staff",
                &[
                    &["Name", "Role"],
                    &["Dana", "Budget owner"],
                    &["Lee", "North region lead"],
                ],
            ),
        ]),
    );
    write(
        dir,
        "deck.pptx",
        &testdoc::pptx(&[
            (2, &["Roadmap 2025", "Search inside documents"], None),
            (
                10,
                &["Architecture", "Converters run in parallel"],
                Some("Mention the memory cap"),
            ),
            (1, &["Questions?"], None),
        ]),
    );
    write(
        dir,
        "notes.odt",
        &testdoc::odf("application/vnd.oasis.opendocument.text", ODT),
    );
    write(
        dir,
        "costs.ods",
        &testdoc::odf("application/vnd.oasis.opendocument.spreadsheet", ODS),
    );
    write(
        dir,
        "talk.odp",
        &testdoc::odf("application/vnd.oasis.opendocument.presentation", ODP),
    );
    write(
        dir,
        "novel.epub",
        &testdoc::epub(
            &[
                (
                    "ch2.xhtml",
                    "<h1>Chapter Two</h1><p>The lighthouse keeper counted ships.</p>",
                ),
                (
                    "ch1.xhtml",
                    "<h1>Chapter One</h1><p>It was a quiet harbour town.</p>",
                ),
            ],
            &[1, 0],
        ),
    );
    write(dir, "guide.html", GUIDE_HTML.as_bytes());
    write(
        dir,
        "hostile/encrypted.pdf",
        &testdoc::encrypted_pdf(&manual, "secret"),
    );
    write(dir, "hostile/truncated.pdf", &manual[..manual.len() / 3]);
    let mut broken = b"PK\x03\x04\x14\x00\x00\x00".to_vec();
    broken.extend_from_slice(b"this zip was cut short\x00\x00");
    write(dir, "hostile/broken.docx", &broken);
    write(
        dir,
        "hostile/bomb.docx",
        &testdoc::zip_bomb("word/document.xml", BOMB_BYTES),
    );
}

fn report() -> Vec<u8> {
    testdoc::docx(&[
        w_para(Some("Heading1"), "Quarterly report"),
        w_para(
            None,
            "Revenue grew in every region; the cache rollout cut latency.",
        ),
        w_para(Some("Heading2"), "Figures"),
        w_table(&[
            &["Region", "Revenue", "Owner"],
            &["North", "1200", "Dana"],
            &["South", "980", "Lee"],
        ]),
        w_para(None, "Next review: October."),
    ])
}

const ODT: &str = "<office:text><text:h text:outline-level=\"1\">Meeting notes</text:h>\
    <text:p>Decided: ship the PDF reader first.</text:p>\
    <text:p>Owner:<text:tab/>Robin</text:p></office:text>";

const ODS: &str = "<office:spreadsheet><table:table table:name=\"Travel\"><table:table-row>\
    <table:table-cell><text:p>Flight</text:p></table:table-cell>\
    <table:table-cell><text:p>420</text:p></table:table-cell></table:table-row></table:table>\
    <table:table table:name=\"Hotel\"><table:table-row><table:table-cell><text:p>Three nights</text:p>\
    </table:table-cell><table:table-cell><text:p>510</text:p></table:table-cell></table:table-row>\
    </table:table></office:spreadsheet>";

const ODP: &str = "<office:presentation><draw:page><draw:frame><draw:text-box>\
    <text:p>Kickoff</text:p></draw:text-box></draw:frame></draw:page><draw:page><draw:frame>\
    <draw:text-box><text:p>Budget review</text:p></draw:text-box></draw:frame></draw:page>\
    </office:presentation>";

const GUIDE_HTML: &str = "<!DOCTYPE html>
<html>
<head>
  <title>Deployment guide</title>
  <style>h1 { color: navy }</style>
  <script>var secretToken = \"not visible text\";</script>
</head>
<body>
  <h1>Deploying the service</h1>
  <p>Set <code>POOL_SIZE</code> before the first deploy &amp; restart.</p>
  <table><tr><td>staging</td><td>eu-west</td></tr></table>
</body>
</html>
";

/// `count` PDFs of 20 pages each, in folders of 50, with text that a query
/// can find in a few of them.
fn bench(dir: &Path, count: usize) {
    const WORDS: &[&str] = &[
        "invoice",
        "shipment",
        "warehouse",
        "customer",
        "contract",
        "renewal",
        "pricing",
        "discount",
        "delivery",
        "schedule",
        "inventory",
        "supplier",
        "payment",
        "refund",
    ];
    for n in 0..count {
        let pages: Vec<Vec<String>> = (0..20)
            .map(|p| {
                (0..40)
                    .map(|l| {
                        let w = |k: usize| WORDS[(n * 7 + p * 13 + l * 3 + k) % WORDS.len()];
                        format!(
                            "Section {p}.{l}: the {} {} for the {} is {}.",
                            w(0),
                            w(1),
                            w(2),
                            n * 40 + l
                        )
                    })
                    .collect()
            })
            .collect();
        let mut pages: Vec<Vec<&str>> = pages
            .iter()
            .map(|p| p.iter().map(String::as_str).collect())
            .collect();
        if n % 50 == 7 {
            pages[3].push("The connection pool size is configured in settings.toml.");
        }
        let pages: Vec<&[&str]> = pages.iter().map(Vec::as_slice).collect();
        write(
            dir,
            &format!("batch{:02}/doc{n:04}.pdf", n / 50),
            &testdoc::pdf(&pages),
        );
    }
}
