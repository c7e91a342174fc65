#!/usr/bin/env python3
"""Train the two-table bag-of-words embedding on extract.py's pairs.

    PYTHON tests/bench/semantic/train.py --pairs /tmp/kgrep-sem/pairs.jsonl --out /tmp/kgrep-sem/model.pt \
        [--dim 128] [--epochs 3] [--hard-negatives]

A doc sentence and its function are encoded on two sides (a query table and a code
table over one vocabulary of stems, `tok.py`), each a softmax-weighted mean of its
words' vectors, and trained with a symmetric in-batch contrastive loss (half the
batches from one repository, so the negatives share its vocabulary). With
`--hard-negatives`, each pair also brings the function of its repository that TF-IDF
ranks highest for its sentence. 10% of the repositories are held out; each epoch
prints their MRR and R@1 among 1,000 pairs. Needs numpy, torch, scikit-learn and
snowballstemmer; CPU only, seeds fixed.
"""
import sys, os, json, random, argparse, collections, time
import numpy as np, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tok

ap = argparse.ArgumentParser()
ap.add_argument("--pairs", required=True)
ap.add_argument("--out", required=True)
ap.add_argument("--dim", type=int, default=128)
ap.add_argument("--vocab", type=int, default=40000)
ap.add_argument("--min-count", type=int, default=3)
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=512)
ap.add_argument("--holdout", type=float, default=0.1)
ap.add_argument("--max-code", type=int, default=256)
ap.add_argument("--lr", type=float, default=2e-3)
ap.add_argument("--scale", type=float, default=20.0)
ap.add_argument("--hard-negatives", action="store_true")
args = ap.parse_args()
random.seed(7); torch.manual_seed(7); np.random.seed(7)

rows = []
t0 = time.time()
for line in open(args.pairs):
    r = json.loads(line)
    q = tok.tokens(r["doc"])
    c = tok.code_words(r["name"], r["code"], args.max_code)
    if len(q) >= 2 and len(c) >= 3:
        rows.append((q, c, r["repo"]))
print(f"{len(rows)} pairs tokenized in {time.time()-t0:.0f}s", file=sys.stderr)
repos = sorted({r[2] for r in rows})
random.shuffle(repos)
nh = max(1, int(len(repos) * args.holdout))
held = set(repos[:nh])
train = [r for r in rows if r[2] not in held]
test = [r for r in rows if r[2] in held]
print(f"train {len(train)} ({len(repos)-nh} repos), test {len(test)} ({nh} repos: {sorted(held)})", file=sys.stderr)

cnt = collections.Counter()
for q, c, _ in train:
    cnt.update(set(q)); cnt.update(set(c))
vocab = ["<unk>"] + [w for w, n in cnt.most_common(args.vocab) if n >= args.min_count]
idx = {w: i for i, w in enumerate(vocab)}
V = len(vocab)
print(f"vocab {V}", file=sys.stderr)

def ids(ts, cap):
    return [idx[t] for t in ts if t in idx][:cap]

def enc(rows_):
    return [(ids(q, 64), ids(c, args.max_code), r) for q, c, r in rows_]
train_e = [x for x in enc(train) if x[0] and x[1]]
test_e = [x for x in enc(test) if x[0] and x[1]]

from sklearn.feature_extraction.text import TfidfVectorizer
def hard_negs(data):
    by = collections.defaultdict(list)
    for i, x in enumerate(data): by[x[2]].append(i)
    neg = [None] * len(data)
    for r, ix in by.items():
        if len(ix) < 2: continue
        vec = TfidfVectorizer(analyzer=lambda s: s, sublinear_tf=True)
        C = vec.fit_transform([[str(t) for t in data[i][1]] for i in ix])
        Q = vec.transform([[str(t) for t in data[i][0]] for i in ix])
        S = (Q @ C.T).toarray()
        np.fill_diagonal(S, -1)
        best = S.argmax(1)
        for k, i in enumerate(ix): neg[i] = data[ix[best[k]]][1]
    return neg
if args.hard_negatives:
    t0 = time.time()
    negs = hard_negs(train_e)
    train_e = [(x[0], x[1], x[2], n) for x, n in zip(train_e, negs) if n is not None]
    print(f"hard negatives in {time.time()-t0:.0f}s", file=sys.stderr)

class Model(torch.nn.Module):
    def __init__(s):
        super().__init__()
        d = args.dim
        s.Eq = torch.nn.Embedding(V, d); s.Ec = torch.nn.Embedding(V, d)
        s.aq = torch.nn.Embedding(V, 1); s.ac = torch.nn.Embedding(V, 1)
        for e in (s.Eq, s.Ec): torch.nn.init.normal_(e.weight, std=0.1)
        for a in (s.aq, s.ac): torch.nn.init.zeros_(a.weight)
    def pool(s, E, A, batch):
        L = max(len(b) for b in batch)
        x = torch.zeros(len(batch), L, dtype=torch.long); m = torch.zeros(len(batch), L, dtype=torch.bool)
        for i, b in enumerate(batch):
            x[i, :len(b)] = torch.tensor(b); m[i, :len(b)] = True
        logit = A(x).squeeze(-1).masked_fill(~m, -1e9)
        w = torch.softmax(logit, dim=1)
        v = (w.unsqueeze(-1) * E(x)).sum(1)
        return torch.nn.functional.normalize(v, dim=1)
    def q(s, b): return s.pool(s.Eq, s.aq, b)
    def c(s, b): return s.pool(s.Ec, s.ac, b)

model = Model()
opt = torch.optim.Adam(model.parameters(), lr=args.lr)

def batches(data):
    by = collections.defaultdict(list)
    for x in data: by[x[2]].append(x)
    out = []
    # half: same-repo batches (hard negatives); half: mixed
    for r, xs in by.items():
        random.shuffle(xs)
        for i in range(0, len(xs) - 63, args.batch // 2):
            out.append(xs[i:i + args.batch // 2])
    mixed = data[:]; random.shuffle(mixed)
    for i in range(0, len(mixed) - args.batch + 1, args.batch):
        out.append(mixed[i:i + args.batch])
    random.shuffle(out)
    return out

def evaluate(data, n=1000, seeds=3):
    model.eval(); mrr = []; r1 = []
    with torch.no_grad():
        for s in range(seeds):
            rnd = random.Random(s); sample = rnd.sample(data, min(n, len(data)))
            Q = model.q([x[0] for x in sample]); C = model.c([x[1] for x in sample])
            S = Q @ C.T
            rank = (S > S.diag().unsqueeze(1)).sum(1).float() + 1
            mrr.append((1 / rank).mean().item()); r1.append((rank == 1).float().mean().item())
    model.train()
    return sum(mrr) / len(mrr), sum(r1) / len(r1)

print("before", evaluate(test_e), file=sys.stderr)
for ep in range(args.epochs):
    t0 = time.time(); tot = 0; nb = 0
    for b in batches(train_e):
        Q = model.q([x[0] for x in b])
        C = model.c([x[1] for x in b] + ([x[3] for x in b] if args.hard_negatives else []))
        S = args.scale * Q @ C.T
        lab = torch.arange(len(b))
        loss = (torch.nn.functional.cross_entropy(S, lab) + torch.nn.functional.cross_entropy(S[:, :len(b)].T, lab)) / 2
        opt.zero_grad(); loss.backward(); opt.step()
        tot += loss.item(); nb += 1
    print(f"epoch {ep}: loss {tot/nb:.3f} test mrr/r1 {evaluate(test_e)} ({time.time()-t0:.0f}s)", file=sys.stderr)

torch.save({"vocab": vocab, "state": model.state_dict(), "args": vars(args), "held": sorted(held)}, args.out)
