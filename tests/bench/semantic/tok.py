"""Text into the embedding's words: a mirror of kgrep's query::words (split) and
thesaurus::stem, and how a function is read (`code_words`)."""
import collections, functools, re
import snowballstemmer
_ST = snowballstemmer.stemmer("english")

def parts(token):
    out = []; start = 0; prev = None
    n = len(token)
    for pos, c in enumerate(token):
        if prev is not None:
            nxt = token[pos + 1] if pos + 1 < n else None
            lower_to_upper = prev.islower() and c.isupper()
            after = token[pos + 2] if pos + 2 < n else None
            plural = nxt == 's' and (after is None or not after.islower())
            acronym_end = prev.isupper() and c.isupper() and (nxt is not None and nxt.islower()) and not plural
            digit_edge = (prev in "0123456789") != (c in "0123456789")
            if lower_to_upper or acronym_end or digit_edge:
                out.append(token[start:pos]); start = pos
        prev = c
    out.append(token[start:])
    return out

_SPLIT = re.compile(r"[^\w]|_", re.UNICODE)

def words(text):
    res = []
    for token in _SPLIT.split(text):
        if token:
            for p in parts(token):
                res.append(p.lower())
    return res

@functools.lru_cache(maxsize=1 << 20)
def stem(w):
    s = _ST.stemWord(w)
    if len(s) == 2 and len(w) > 3 and w.startswith(s) and w[2] == s[1]:
        s = s + s[1]
    return s

STOP = set("""a an the of to and or in on for is it be by this that with as at from if are its into any all
was were been has have had do does did not no but so than then there their them they we you your our
i me my he she his her can could should would will shall may might must what which who whom whose when where
why how about over under up down out off again further once here both each few more most other some such only own
same too very just also s t d""".split())

def tokens(text, keep_stop=False):
    out = []
    for w in words(text):
        if len(w) < 2 or w.isdigit() or (not keep_stop and w in STOP):
            continue
        if not w.isascii():
            continue
        out.append(stem(w))
    return out


MAX_REPEATS = 3


def code_words(name, text, cap, known=None):
    """A function as the model reads it: its name's words twice (stop words kept),
    then its text's, each at most MAX_REPEATS times, at most `cap` in all. With
    `known`, only the words it accepts (the vocabulary's) count toward the caps."""
    seen = collections.Counter(); out = []
    for t in tokens(name, keep_stop=True) * 2 + tokens(text):
        if known is not None and not known(t):
            continue
        if seen[t] < MAX_REPEATS:
            seen[t] += 1; out.append(t)
        if len(out) >= cap:
            break
    return out
