#!/usr/bin/env python3
"""Write a trained embedding as the blob the experiment's kgrep build compiled in
(`src/semantic/model.bin` there; no such file is in the tree now: README.md).

Layout, little-endian:
  b"KGSEM\\x01\\0\\0", u32 vocab, u32 dim,
  u32 offsets[vocab + 1] into the word bytes, the word bytes (sorted, UTF-8),
  per word, in sorted order: f32 query weight, f32 code weight, f32 query scale, f32 code scale,
  then per word: i8 query[dim], then per word: i8 code[dim].
A vector is scale * i8; a weight is exp(attention logit - the side's max), so a pooled
vector is sum(weight * vector) (the softmax's denominator cancels when it is normalised).
"""
import sys, struct, hashlib, numpy as np, torch
ck = torch.load(sys.argv[1], weights_only=False)
vocab = ck["vocab"]; st = ck["state"]
Eq = st["Eq.weight"].numpy(); Ec = st["Ec.weight"].numpy()
aq = st["aq.weight"].numpy()[:, 0]; ac = st["ac.weight"].numpy()[:, 0]
order = sorted(range(1, len(vocab)), key=lambda i: vocab[i].encode())  # drop <unk>
V = len(order); d = Eq.shape[1]
def quant(E):
    s = np.abs(E).max(1) / 127.0; s[s == 0] = 1.0
    return np.clip(np.round(E / s[:, None]), -127, 127).astype(np.int8), s.astype(np.float32)
Qi, Qs = quant(Eq); Ci, Cs = quant(Ec)
wq = np.exp(aq - aq.max()).astype(np.float32); wc = np.exp(ac - ac.max()).astype(np.float32)
out = bytearray(b"KGSEM\x01\0\0") + struct.pack("<II", V, d)
words = [vocab[i].encode() for i in order]
off = [0]
for w in words: off.append(off[-1] + len(w))
out += struct.pack(f"<{V+1}I", *off) + b"".join(words)
for i in order: out += struct.pack("<ffff", wq[i], wc[i], Qs[i], Cs[i])
for i in order: out += Qi[i].tobytes()
for i in order: out += Ci[i].tobytes()
open(sys.argv[2], "wb").write(out)
print(V, d, len(out), hashlib.sha256(out).hexdigest())
