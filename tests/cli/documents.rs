//! Searching inside documents (issue 8): the real binary on `fixtures/documents/`
//! (written by `examples/make_documents.rs`) and on hostile files.

use crate::harness::Dir;

/// A temp dir holding a copy of `fixtures/documents/`.
fn documents() -> Dir {
    let d = Dir::new();
    d.copy_fixture("documents");
    d
}

#[test]
fn pdf_lines_carry_their_page() {
    let d = documents();
    d.run(&["\"pool size\"", "manual.pdf"])
        .code(0)
        .stdout_is("./manual.pdf\n8:\tThe database pool size defaults to five.\tpage=2\n")
        .stderr_has("Scanned 1 files. Loaded 1.");
}

#[test]
fn pdf_context_crosses_the_page_marker() {
    let d = documents();
    d.run(&["-C", "1", "\"Chapter 2\"", "manual.pdf"])
        .code(0)
        .stdout_is(
            "./manual.pdf\n6-\t===== Page 2 =====\tpage=2\n7:\tChapter 2: Database\tpage=2\n\
             8-\tThe database pool size defaults to five.\tpage=2\n",
        );
    d.run(&["-B", "1", "\"Page 2\"", "manual.pdf"])
        .code(0)
        .stdout_is("./manual.pdf\n5-\t\tpage=1\n6:\t===== Page 2 =====\tpage=2\n");
}

#[test]
fn docx_table_cells_are_one_row_per_line() {
    let d = documents();
    d.run(&["Dana", "report.docx"])
        .code(0)
        .stdout_is("./report.docx\n5:\tNorth\t1200\tDana\n");
    d.run(&["-C", "1", "Quarterly", "report.docx"])
        .code(0)
        .stdout_is(
            "./report.docx\n1:\tQuarterly report\n\
             2-\tRevenue grew in every region; the cache rollout cut latency.\n",
        );
}

#[test]
fn xlsx_rows_follow_their_sheet_name() {
    let d = documents();
    d.run(&["-B", "2", "\"Budget owner\"", "budget.xlsx"])
        .code(0)
        .stdout_is(
            "./budget.xlsx\n5-\t===== Sheet: Staff =====\n6-\tName\tRole\n7:\tDana\tBudget owner\n",
        );
    d.run(&["South", "budget.xlsx"])
        .code(0)
        .stdout_is("./budget.xlsx\n4:\tSouth\t980\t1010\n");
}

#[test]
fn pptx_slides_in_presentation_order() {
    let d = documents();
    d.run(&["-B", "3", "\"memory cap\"", "deck.pptx"])
        .code(0)
        .stdout_is(
            "./deck.pptx\n4-\t===== Slide 2 =====\n5-\tArchitecture\n\
             6-\tConverters run in parallel\n7:\tMention the memory cap\n",
        );
    d.run(&["Questions", "deck.pptx"])
        .code(0)
        .stdout_is("./deck.pptx\n9:\tQuestions?\n");
}

#[test]
fn opendocument_text_sheets_and_slides() {
    let d = documents();
    d.run(&["Robin", "notes.odt"])
        .code(0)
        .stdout_is("./notes.odt\n3:\tOwner:\tRobin\n");
    d.run(&["-B", "1", "\"Three nights\"", "costs.ods"])
        .code(0)
        .stdout_is("./costs.ods\n3-\t===== Sheet: Hotel =====\n4:\tThree nights\t510\n");
    d.run(&["-B", "1", "\"Budget review\"", "talk.odp"])
        .code(0)
        .stdout_is("./talk.odp\n3-\t===== Slide 2 =====\n4:\tBudget review\n");
}

#[test]
fn epub_chapters_in_spine_order() {
    let d = documents();
    d.run(&["^Chapter", "novel.epub"])
        .code(0)
        .stdout_is("./novel.epub\n1:\tChapter One\n4:\tChapter Two\n");
}

#[test]
fn html_visible_text_on_the_source_lines() {
    let d = documents();
    d.run(&["POOL_SIZE", "guide.html"])
        .code(0)
        .stdout_is("./guide.html\n10:\t  Set POOL_SIZE before the first deploy & restart.\n");
    // Script bodies are not text; `-a` searches the markup itself.
    d.run(&["secretToken", "guide.html"]).code(1).stdout_is("");
    d.run(&["-a", "secretToken", "guide.html"])
        .code(0)
        .stdout_has("6:\t  <script>var secretToken");
}

#[test]
fn a_natural_language_query_ranks_inside_documents() {
    let d = documents();
    let run = d.run(&["where is the pool size configured", "."]);
    run.code(0)
        .stdout_has("The database pool size defaults to five.\tpage=2")
        .stdout_has("./guide.html\n");
}

#[test]
fn text_flag_searches_office_bytes_raw_but_still_reads_pdfs() {
    let d = documents();
    // The zip's own entry names are only in the raw bytes.
    d.run(&["word/document.xml", "report.docx"]).code(1);
    d.run(&["-a", "word/document.xml", "report.docx"])
        .code(0)
        .stdout_has("./report.docx\n");
    // rlmgrep reads every .pdf with its PDF reader, -a or not.
    d.run(&["-a", "Installation", "manual.pdf"])
        .code(0)
        .stdout_is(
            "./manual.pdf\n3:\tChapter 1: Installation\tpage=1\n4:\tInstall the package with pip.\tpage=1\n",
        );
}

#[test]
fn hostile_documents_are_skipped_with_one_line_each() {
    let d = documents();
    d.write("ok.txt", "needle in a text file\n");
    let run = d.run(&["needle", "hostile", "ok.txt"]);
    run.code(0)
        .stdout_is("./ok.txt\n1:\tneedle in a text file\n")
        .stderr_has("Scanned 5 files. Loaded 1. Skipped 4.\n")
        .stderr_has("kgrep: skip hostile/bomb.docx: Word document: word/document.xml inflates past the limit (zip bomb?)\n")
        .stderr_has("kgrep: skip hostile/broken.docx: unreadable Word document: invalid Zip archive")
        .stderr_has("kgrep: skip hostile/encrypted.pdf: encrypted PDF (needs a password)\n")
        .stderr_has("kgrep: skip hostile/truncated.pdf: unreadable PDF: damaged or truncated, no text recoverable\n");
    assert_eq!(run.stderr.lines().count(), 5, "{}", run.describe);
    assert!(!run.stderr.contains("panicked"), "{}", run.describe);
}

#[test]
fn only_unconvertible_documents_means_no_readable_files() {
    let d = documents();
    d.run(&["needle", "hostile/encrypted.pdf"])
        .code(2)
        .stderr_has("Skipped 1.\nkgrep: skip hostile/encrypted.pdf: encrypted PDF (needs a password)\nkgrep: no readable files\n");
}

/// A one-page PDF whose page content stream (object 5) is `stream`, its
/// dictionary holding `filter` (e.g. `/Filter /FlateDecode`, or nothing).
fn one_page_pdf(stream: &str, filter: &str) -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_string(),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"
            .to_string(),
        format!(
            "<< /Length {} {filter} >>\nstream\n{stream}\nendstream",
            stream.len()
        ),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(b"xref\n0 6\n0000000000 65535 f \n");
    for off in offsets {
        pdf.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!("trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
    );
    pdf
}

#[test]
fn a_pdf_with_a_broken_page_stream_is_reported_and_the_rest_searched() {
    let d = Dir::new();
    // A page whose content stream claims a filter it does not have.
    d.write(
        "odd.pdf",
        one_page_pdf("not deflated", "/Filter /FlateDecode"),
    );
    d.write("notes.txt", "needle notes\n");
    let run = d.run(&["needle", "."]);
    // The page reads as empty (as pypdf's failure on one page does in
    // rlmgrep), and is reported like an unreadable file: exit 2.
    run.code(2)
        .stdout_is("./notes.txt\n1:\tneedle notes\n")
        .stderr_has("Scanned 2 files. Loaded 2.")
        .stderr_has(
            "kgrep: ./odd.pdf: page 1 was not read in full: its content could not be decoded",
        );
    assert!(!run.stderr.contains("panicked"), "{}", run.describe);
}

#[test]
fn deep_nesting_in_a_pdf_page_is_reported_and_the_text_before_it_searched() {
    // Issue 28, item 9: the page's text after an array nested 1,000 deep
    // was lost with no word ("Loaded 1", exit 1).
    let d = Dir::new();
    let nested = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    let content = format!(
        "BT /F1 12 Tf 72 720 Td (first needle) Tj ET\n{nested} pop\n\
         BT /F1 12 Tf 72 700 Td (second needle) Tj ET"
    );
    d.write("deep.pdf", one_page_pdf(&content, ""));
    let run = d.run(&["\"needle\"", "deep.pdf"]);
    run.code(2)
        .stdout_is("./deep.pdf\n2:\tfirst needle\tpage=1\n")
        .stderr_has(
            "kgrep: deep.pdf: page 1 was not read in full: its content stops parsing part way \
             (nested too deeply, or damaged); the text after that point is missing",
        );
    // The same page without the nesting reads in full, silently.
    d.write(
        "flat.pdf",
        one_page_pdf(&content.replace(&format!("{nested} pop"), ""), ""),
    );
    d.run(&["\"needle\"", "flat.pdf"])
        .code(0)
        .stderr_lacks("not read in full");
}
