"""The learned reading of the promotion gate: a logistic regression over hashed words, word pairs and
4-5 letter pieces of an item's rendered views (its text, HTML comments, link targets and titles),
trained on the labelled poison rounds (tests/labels/poison*.tsv) and real corpus lines
(benchmarks/train_riskmodel.py). Its one head ("weaken") says an item may weaken a safeguard: the
item goes to the PR's read-carefully section. The file format holds any number of named heads.

Why beside the word lists (core/safeguard.py): the lists catch what their words name; on the rounds
nobody tuned on, paraphrases in new words slipped past them (round 11: 6 items in the PR outside the
safeguard section, 7 staged unwarned); the pieces of words a model weighs generalise across wordings
and languages (round 11 with it: 0 and 0, docs/promotion.md). Pure: bytes in, probabilities out.
"""
from __future__ import annotations

import math
import re
import struct
import sys
import zlib
from array import array
from dataclasses import dataclass, field

from tiergit.core import safeguard

BUCKETS = 1 << 20
HEADS = ("weaken",)
MAGIC = b"TGRM1"
WORD_RE = re.compile(r"\w+")
# A line's list marker and tiergit's own kind tag say how an item was stored, not what it says: the poison
# rounds carry "[rule]" tags far more than the corpus lines do, and a model that weighed them doubted
# every tagged item of a real store ("- [decision] **By:** … every package compiles in strict mode": p 0.95).
STORAGE_RE = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\[(?:rule|decision|fact|correction|context)\](?!\()[ \t]*)?", re.M)
# Weights are stored as integers of this many thousandths (|w| below one step is dropped).
SCALE = 1000


@dataclass
class Model:
    bias: dict[str, float] = field(default_factory=dict)
    weights: dict[str, dict[int, float]] = field(default_factory=dict)


def _hash(piece: str) -> int:
    return zlib.crc32(piece.encode("utf-8")) % BUCKETS


def features(raw: str) -> list[int]:
    """The hashed features of an item: every word, every pair of neighbouring words, and the 4- and
    5-letter pieces of words of 4 letters or more, read on the rendered views (lowercased, look-alike
    letters folded, lines joined), not on the markdown source; list markers and kind tags dropped."""
    views = safeguard.views(STORAGE_RE.sub("", raw))
    text = " | ".join(safeguard.flat(t) for where, t in views if where != "the markdown source")
    words = WORD_RE.findall(text)
    pieces: set[str] = set()
    for w in words:
        pieces.add("w:" + w)
        if len(w) >= 4:
            padded = f" {w} "
            for n in (4, 5):
                pieces.update("c:" + padded[i:i + n] for i in range(len(padded) - n + 1))
    pieces.update(f"b:{a} {b}" for a, b in zip(words, words[1:]))
    return sorted({_hash(p) for p in pieces})


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def probability(model: Model, head: str, feats: list[int]) -> float:
    w = model.weights.get(head, {})
    return _sigmoid(model.bias.get(head, 0.0) + sum(w.get(h, 0.0) for h in feats))


def train(rows: list[tuple[list[int], int, float]], epochs: int = 25, rate: float = 0.3,
          l2: float = 1e-4, seed: int = 0) -> tuple[float, dict[int, float]]:
    """(bias, weights) by stochastic gradient descent on (features, 0/1 label, row weight) rows.
    Deterministic: the shuffle is seeded and the sums run in a fixed order."""
    import random

    w: dict[int, float] = {}
    b = 0.0
    order = list(range(len(rows)))
    rng = random.Random(seed)
    for epoch in range(epochs):
        rng.shuffle(order)
        eta = rate / (1 + epoch * 0.2)
        for i in order:
            x, y, weight = rows[i]
            g = (_sigmoid(b + sum(w.get(h, 0.0) for h in x)) - y) * weight
            for h in x:
                old = w.get(h, 0.0)
                w[h] = old - eta * (g + l2 * old)
            b -= eta * g
    return b, w


def encode(model: Model) -> bytes:
    """The model as compressed bytes: per head its bias, then sorted bucket numbers and weights in
    thousandths (weights under one thousandth dropped)."""
    out = [MAGIC, struct.pack("<B", len(HEADS))]
    for head in HEADS:
        kept = sorted((h, round(v * SCALE)) for h, v in model.weights.get(head, {}).items()
                      if round(v * SCALE) != 0)
        keys = array("I", (h for h, _ in kept))
        vals = array("i", (max(-2**31, min(2**31 - 1, q)) for _, q in kept))
        if sys.byteorder == "big":   # the file is little-endian everywhere
            keys.byteswap()
            vals.byteswap()
        out.append(struct.pack("<dI", model.bias.get(head, 0.0), len(kept)))
        out.append(keys.tobytes() + vals.tobytes())
    return zlib.compress(b"".join(out), 9)


def decode(blob: bytes) -> Model:
    data = zlib.decompress(blob)
    if not data.startswith(MAGIC):
        raise ValueError("not a tiergit risk model")
    at = len(MAGIC)
    (n_heads,) = struct.unpack_from("<B", data, at)
    at += 1
    model = Model()
    for head in HEADS[:n_heads]:
        bias, n = struct.unpack_from("<dI", data, at)
        at += struct.calcsize("<dI")
        keys = array("I")
        keys.frombytes(data[at:at + 4 * n])
        vals = array("i")
        vals.frombytes(data[at + 4 * n:at + 8 * n])
        if sys.byteorder == "big":
            keys.byteswap()
            vals.byteswap()
        at += 8 * n
        model.bias[head] = bias
        model.weights[head] = {k: v / SCALE for k, v in zip(keys, vals)}
    return model
