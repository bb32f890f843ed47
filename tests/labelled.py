"""The project's labelled data (tests/labels/*.tsv), for tests and benchmarks.

Corpus lines are stored by reference (path under the corpus, 1-based line, sha256 of the
line's text) and read from the corpus here; a reference whose hash no longer matches is an
error, not a silent relabel. Lines the team wrote itself are stored verbatim; credentials
among them are templates filled with deterministic characters (see credentials.tsv).
"""
from __future__ import annotations

import hashlib
import random
import re
import string
from pathlib import Path

LABELS = Path(__file__).resolve().parent / "labels"
CLASSES = {
    "A": string.ascii_letters + string.digits, "a": string.ascii_lowercase + string.digits,
    "h": "0123456789abcdef", "H": string.ascii_uppercase + string.digits, "L": string.ascii_letters,
    "b": string.ascii_letters + string.digits + "+/", "u": string.ascii_letters + string.digits + "-_",
    "d": string.digits,
}
HOLE = re.compile(r"<<([A-Za-z]):(\d+)>>")


def rows(name: str) -> list[list[str]]:
    """Tab-separated rows of a label file, comments and blank lines skipped."""
    out = []
    for line in (LABELS / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(line.split("\t"))
    return out


def fill(template: str, seed: int) -> str:
    """A credential template with every <<CLASS:N>> hole filled (same seed, same text)."""
    rng = random.Random(seed)
    return HOLE.sub(lambda m: "".join(rng.choice(CLASSES[m[1]]) for _ in range(int(m[2]))), template)


def credentials() -> list[tuple[str, str]]:
    """(kind, line) of every labelled credential."""
    return [(kind, fill(text, n)) for n, (kind, text) in enumerate(rows("credentials.tsv"))]


def held_out(template_line: str) -> bool:
    """The held-out third of a label file, fixed by each row's own text (not by its position), so
    adding rows never moves an old one between the parts: tuning looks only at the other two thirds."""
    return hashlib.sha256(template_line.encode("utf-8")).digest()[0] % 3 == 0


def credential_parts() -> dict[str, list[tuple[str, str]]]:
    """credentials() split into "tuned" and "held-out" (held_out of each row's template)."""
    parts: dict[str, list[tuple[str, str]]] = {"tuned": [], "held-out": []}
    for n, (kind, text) in enumerate(rows("credentials.tsv")):
        parts["held-out" if held_out(f"{kind}\t{text}") else "tuned"].append((kind, fill(text, n)))
    return parts


def lookalikes() -> list[tuple[str, str, bool]]:
    """(category, line, held out) of every benign look-alike: each template filled three times
    (seeds 10000 + 3n + k), a row without a hole once."""
    out = []
    for n, (category, text) in enumerate(rows("benign_lookalikes.tsv")):
        fills = 3 if HOLE.search(text) else 1
        out += [(category, fill(text, 10000 + 3 * n + k), held_out(f"{category}\t{text}")) for k in range(fills)]
    return out


_LINES: dict[Path, list[str]] = {}


def corpus_line(corpus: Path, rel: str, line: int, sha: str) -> str:
    """The referenced corpus line, checked against its hash."""
    path = corpus / rel
    if path not in _LINES:
        _LINES[path] = path.read_text(encoding="utf-8", errors="replace").splitlines()
    text = _LINES[path][line - 1]
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != sha:
        raise AssertionError(f"{rel}:{line}: the corpus line changed since it was labelled")
    return text


def benign_secret_lines(corpus: Path) -> list[tuple[str, str]]:
    """(reference, text) of the labelled benign corpus lines."""
    return [(f"{rel}:{n}", corpus_line(corpus, rel, int(n), sha))
            for rel, n, sha in rows("benign_secret_lines.tsv")]


def poison(name: str = "poison.tsv") -> list[dict[str, str]]:
    """The poison benchmark's items (tests/labels/poison.tsv, or its second round poison_round2.tsv):
    label, lang, form, split and the item's markdown (`\\n` there is a line break)."""
    return [{"label": label, "lang": lang, "form": form, "split": split, "text": text.replace("\\n", "\n")}
            for label, lang, form, split, text in rows(name)]


def kappa(first: list[str], second: list[str]) -> tuple[int, int, float]:
    """(items, agreeing, Cohen's kappa) of two readers' labels in the same order."""
    n = len(first)
    agree = sum(a == b for a, b in zip(first, second))
    chance = sum((first.count(x) / n) * (second.count(x) / n) for x in set(first) | set(second))
    return n, agree, ((agree / n - chance) / (1 - chance) if chance < 1 else 1.0)


def second_reading(name: str) -> str:
    """One line on how a second, independent reader's labels agree with the first's."""
    import hashlib

    if name == "poison":
        first = [r[0] for r in rows("poison.tsv")]
        second = [r[1] for r in rows("poison_reader2.tsv")]
    else:   # the credentials and look-alikes, filled, matched by the sha256 of each line
        by_hash = {r[0]: r[1] for r in rows("secrets_reader2.tsv")}
        written = [("credential", line) for _, line in credentials()] + \
            [("benign", line) for _, line, *_ in lookalikes()]
        pairs = [(lab, by_hash.get(hashlib.sha256(line.encode()).hexdigest())) for lab, line in written]
        first, second = [a for a, b in pairs if b], [b for a, b in pairs if b]
    n, agree, k = kappa(first, second)
    return f"second reader: {agree}/{n} labels agree, Cohen's kappa {k:.3f}"
