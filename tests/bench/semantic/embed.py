"""A trained model (train.py's checkpoint) in numpy: a query's and a piece of code's unit vectors,
as the kgrep build of the experiment computed them."""
import os, sys, torch, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tok

class Emb:
    def __init__(self, path):
        ck = torch.load(path, weights_only=False)
        self.vocab = ck["vocab"]; self.idx = {w: i for i, w in enumerate(self.vocab)}
        st = ck["state"]
        self.Eq = st["Eq.weight"].numpy(); self.Ec = st["Ec.weight"].numpy()
        self.aq = st["aq.weight"].numpy()[:, 0]; self.ac = st["ac.weight"].numpy()[:, 0]
        self.max_code = ck["args"]["max_code"]
    def _pool(self, ids, E, a):
        if not ids: return None
        ids = np.array(ids); l = a[ids]; w = np.exp(l - l.max()); w /= w.sum()
        v = (w[:, None] * E[ids]).sum(0); n = np.linalg.norm(v)
        return v / n if n > 0 else None
    def query(self, text):
        return self._pool([self.idx[t] for t in tok.tokens(text) if t in self.idx][:64], self.Eq, self.aq)
    def code(self, text, name=""):
        words = tok.code_words(name, text, self.max_code, known=self.idx.__contains__)
        return self._pool([self.idx[t] for t in words], self.Ec, self.ac)
