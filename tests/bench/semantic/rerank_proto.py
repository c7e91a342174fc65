#!/usr/bin/env python3
"""Would the embedding's similarity reorder kgrep's question candidates better?

    PYTHON tests/bench/semantic/rerank_proto.py --model M.pt --feat ALLQ-FEATURES.jsonl \
        --grades GRADES.json [--top 8] [--win 30] [--corpora /tmp/kgrep-questions]

FEATURES is `../train/dump.py` over every question set; GRADES a `grade.py --all
--json-out` of the same build (for each question's set). Each question's candidates
are ordered by the shipped question or what-happens model (tests: the hand order);
the first `--top` get a similarity, the best of `--win`-line windows (half
overlapping) of the file; the order is then `score + w * (sim - best sim)`. Prints
first file right for a few `w` (0 is the model order) and for the similarity alone.
"""
import argparse, json, os, sys
import numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "train"))
from embed import Emb  # noqa: E402
import fit_real_questions as frq  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--model", required=True)
ap.add_argument("--feat", required=True)
ap.add_argument("--grades", required=True)
ap.add_argument("--top", type=int, default=8)
ap.add_argument("--win", type=int, default=30)
ap.add_argument("--corpora", default="/tmp/kgrep-questions")
args = ap.parse_args()
emb = Emb(args.model)
meta = frq.set_and_kind()
man = {k: json.load(open(os.path.join(HERE, "..", "train", f"manifest-{k}.json"))) for k in ("questions", "happens")}
where = {r["id"]: r for r in json.load(open(args.grades))}
rows = []
for line in open(args.feat):
    q = json.loads(line)
    if not q["cands"] or q["id"] not in where:
        continue
    kind = meta[q["id"]][1]
    F = np.array([c["f"] for c in q["cands"]])
    if kind == "tests":
        base = -np.array([c["rank"] for c in q["cands"]], float)
    else:
        m = man["happens" if kind in ("happens", "what happens", "fails") else "questions"]
        base = F @ np.array(m["weights"]) + m["bias"]
    order = np.argsort(-base, kind="stable")[: args.top]
    qv = emb.query(q["query"])
    sims = []
    for i in order:
        try:
            lines = open(os.path.join(args.corpora, where[q["id"]]["set"], q["cands"][i]["path"]),
                         errors="replace").read().split("\n")
        except OSError:
            sims.append(-1.0)
            continue
        best = -1.0
        step = args.win // 2
        for s in range(0, max(1, len(lines) - step), step) if qv is not None else ():
            v = emb.code("\n".join(lines[s: s + args.win]))
            if v is not None:
                best = max(best, float(qv @ v))
        sims.append(best)
    gold = set(q["gold"])
    rows.append((np.array([base[i] for i in order]), np.array(sims), [q["cands"][i]["path"] in gold for i in order]))
print(f"{len(rows)} questions")
for w in (0, 2, 5, 10, 15, 20):
    print(f"w {w}: first file right {sum(r[int(np.argmax(b + w * (s - s.max())))] for b, s, r in rows)}")
print(f"similarity alone: {sum(r[int(np.argmax(s))] for b, s, r in rows)}")
