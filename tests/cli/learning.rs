//! The learning loop end to end: the real binary, the mock model on
//! 127.0.0.1, a hermetic HOME whose learned thesaurus the tests read. Pay for
//! a concept once: what an expansion taught answers the same and similar
//! queries offline; bad files, failures and concurrent writers never leave a
//! broken thesaurus.

use serde_json::{json, Value};

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

/// A project whose code says "zibble" for what the queries call "gronk".
fn project() -> Dir {
    let dir = Dir::new();
    dir.write(
        "src/packets.py",
        "class Packet:\n    def __init__(self, data):\n        self.data = data\n\n\
         def zibble(packet):\n    \"\"\"Reverse the bytes of a packet in place.\"\"\"\n    \
         packet.data = packet.data[::-1]\n    return packet\n\n\
         def zibble_all(packets):\n    for p in packets:\n        zibble(p)\n",
    );
    dir.write(
        "src/pipeline.py",
        "from .packets import zibble_all\n\ndef run(batch):\n    \
         # every packet is zibbled before it is sent\n    zibble_all(batch)\n    \
         return send(batch)\n\ndef send(batch):\n    return len(batch)\n",
    );
    dir.write(
        "src/stream.py",
        "from .packets import zibble\n\ndef zibble_stream(stream):\n    \
         \"\"\"Zibble each packet as it arrives.\"\"\"\n    for item in stream:\n        \
         yield zibble(item)\n",
    );
    dir.write(
        "src/config.py",
        "# Settings for the encoder.\nTIMEOUT = 10\nBUFFER_SIZE = 4096\n",
    );
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir
}

/// Not answered offline: the code never says "gronk".
const QUERY: &str = "where do we gronk packets";
/// Shares the concept (an inflection of its name) and nothing else.
const PARAPHRASE: &str = "how is each packet gronked";

fn run(dir: &Dir, args: &[&str], llm: &str) -> Run {
    let mut cmd = dir.cmd();
    cmd.env("KGREP_LLM", llm).args(args);
    crate::harness::finish(&mut cmd, args, dir.path())
}

fn chat(value: Value) -> Step {
    Step::chat(&value.to_string())
}

/// The expansion that teaches "gronk" (its synonyms occur in the code).
fn teach_gronk() -> Step {
    chat(json!({"concepts": [{"name": "gronk",
        "synonyms": ["zibble", "zibbled", "gronking", "blorfify"], "related": []}]}))
}

#[test]
fn explore() {
    let dir = project();
    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "");
    let first = run(&dir, &["-v", QUERY, "."], "auto");
    eprintln!("{}", first.describe);
    eprintln!("calls {}", mock.received().len());
    eprintln!("{}", std::fs::read_to_string(dir.learned_path()).unwrap_or_default());
    let mock2 = MockLlm::start(vec![]);
    dir.use_model(&mock2.base_url(), "");
    let second = run(&dir, &["-v", QUERY, "."], "auto");
    eprintln!("{}", second.describe);
    eprintln!("calls {}", mock2.received().len());
    let third = run(&dir, &["-v", PARAPHRASE, "."], "auto");
    eprintln!("{}", third.describe);
    eprintln!("calls {}", mock2.received().len());
    panic!();
}
