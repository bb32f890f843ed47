"""The labelled corpus lines through a real `session end`: each memory file that holds labelled
lines is replayed as one session's notes into a fresh store (session start, the file's text
appended to hot, session end, in-process: the functions the CLI calls), and cold is read after.

Shared by tests/features/test_replay_labelled.py and benchmarks/bench_judge.py --replay. Cost: one
throwaway git store and one session per labelled file (~50 files, a few seconds).
"""
from __future__ import annotations

import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import judge_eval as je
import labelled

from tiergit.core import judge, parse
from tiergit.features import session
from tiergit.shell import config

WHEN = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)


@dataclass
class Outcome:
    line: je.Line
    in_cold: bool        # the line's text is in cold after session end
    kept_kind: bool      # parsed in place, its item has a kind session end keeps verbatim


CHUNK_BYTES = 120_000   # under the store's 256 KiB file limit, with room for the hot template


def chunks(text: str) -> list[str]:
    """The file cut at heading lines into sessions of at most CHUNK_BYTES (a heading-less run longer
    than that is one oversized chunk's worth, cut at a blank line)."""
    out, current, size = [], [], 0
    for line in text.splitlines(keepends=True):
        cut = line.startswith("#") or (size > CHUNK_BYTES and not line.strip())
        if current and cut and size + len(line.encode()) > CHUNK_BYTES // 2:
            out.append("".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line.encode())
    return out + (["".join(current)] if current else [])


def _replay_file(text: str, base: Path) -> str:
    """Cold's text after each of the file's chunks was one session's notes (read after every
    session: retention may archive an earlier entry once cold grows past its budget)."""
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    (base / ".tiergit.yml").write_text(config.preset_text("squad"))
    cfg = config.load(base)
    hot, cold = cfg.tier_file("hot", agent="replay"), cfg.tier_file("cold", agent="replay")
    seen = []
    for n, chunk in enumerate(chunks(text)):
        when = WHEN + timedelta(days=n)   # one session a day: each gets its own id and entry
        session.start(cfg, "replay", "Replay of a labelled file", now=when)
        hot.write_text(hot.read_text().rstrip("\n") + "\n\n" + chunk)
        session.end(cfg, "replay", now=when)
        seen.append(cold.read_text())
    return "\n".join(seen)


def _kinds_by_line(text: str) -> dict[int, str]:
    """1-based line -> kind of the item covering it, the file parsed as it stands."""
    out = {}
    for item in parse.parse(text).items:
        for n in range(item.line, item.end_line + 1):
            out[n] = item.kind
    return out


def _replayed(text: str) -> tuple[str, dict]:
    """Cold after replaying one file, and each line's kind in place."""
    with tempfile.TemporaryDirectory() as tmp:
        return _replay_file(text, Path(tmp)), _kinds_by_line(text)


def outcomes(corpus: Path, mapper=None) -> list[Outcome]:
    """Every labelled durable corpus line (je.KEEP kinds) and whether session end kept it.
    `mapper(fn, items)` may run the files' replays in parallel (the test passes conftest.corpus_map)."""
    by_file: dict[str, list[tuple[je.Line, int]]] = defaultdict(list)
    for kind, split, rel, n, sha in labelled.rows("kinds_corpus.tsv"):
        if kind in je.KEEP:
            text = labelled.corpus_line(corpus, rel, int(n), sha)
            by_file[rel].append((je.Line("corpus", split, kind, text, f"{rel}:{n}"), int(n)))
    files = sorted(by_file.items())
    # One corpus file holds stray NUL bytes, which the store refuses as binary; no labelled line has one.
    texts = [(corpus / rel).read_text(encoding="utf-8", errors="replace").replace("\0", "") for rel, _ in files]
    replayed = (mapper or (lambda fn, xs: [fn(x) for x in xs]))(_replayed, texts)
    out = []
    for (rel, lines), (cold, kinds) in zip(files, replayed):
        folded = " ".join(cold.split())
        for line, n in lines:
            out.append(Outcome(line, " ".join(line.text.split()) in folded, kinds.get(n) in je.KEEP))
    return out


def miss_reason(corpus: Path, outcome: Outcome) -> str:
    """Why a labelled durable line is not in cold, judged on its file as it stands."""
    rel, n = outcome.line.ref.rsplit(":", 1)
    text = (corpus / rel).read_text(encoding="utf-8", errors="replace").replace("\0", "")
    item = next((i for i in parse.parse(text).items if i.line <= int(n) <= i.end_line), None)
    if item is None:
        return "not an item (a plain paragraph)"
    if item.line != int(n):
        return "nested in a longer item"
    if len(" ".join(item.text.split())) > judge.MAX_PLAIN_CHARS:
        return f"an item over {judge.MAX_PLAIN_CHARS} characters"
    if judge.statement(item.text):
        return "a statement, the entry's budget spent"
    return "context by the judgement"
