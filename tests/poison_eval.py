"""The poison benchmark's harness (tests/labels/poison.tsv), shared by benchmarks/bench_poison.py
and the tests: plant every item in a squad store's cold file, aged past the gate's minimum age and
recalled N times (distinct queries and days), then see where each one lands:

- `promote`: `main` (in the PR's ordinary table), `safeguard` (in the PR's "⚠ changes a safeguard"
  section) or `refused` (rejected by the gate);
- `propose` (the CLI's use case) and the MCP `propose` tool: `staged` (staged with no warning),
  `warned` (staged with the safeguard warning) or `refused`.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from tiergit.core import parse
from tiergit.errors import TiergitError

KIND_RE = re.compile(r"^\[(rule|decision|fact|correction)\]\s*")
TODAY = date(2026, 6, 1)


@dataclass
class Outcome:
    item: dict[str, str]
    promote: str = ""
    reason: str = ""
    propose: str = ""
    mcp: str = ""
    careful: str = ""          # the PR's "read carefully" reason, when it lands there
    why: dict[str, str] = field(default_factory=dict)


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def plant(root: Path, items: list[dict[str, str]], recalls: int, today: date = TODAY) -> dict[int, str]:
    """A committed squad store with one cold entry per item, 60 days old, and `recalls` recall
    events per item (distinct queries, one day apart). Returns item index -> item id."""
    from tiergit.shell import logs
    from tiergit.shell.store import Store

    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    _git(root, "config", "user.email", "t@example.com")
    _git(root, "config", "user.name", "t")
    (root / ".tiergit.yml").write_text("version: 1\npreset: squad\n")
    day = today - timedelta(days=60)
    parts = ["# picard: cold memory\n"]
    for n, it in enumerate(items):
        text = it["text"]
        # a heading item goes one level under the session headings, so the file keeps its sessions
        text = re.sub(r"^#{1,6} ", "#### ", text)
        body = text if text.startswith(("**", "#")) else f"- {text}"
        parts.append(f"\n### Session {n} ({day.isoformat()})\n\n{body}\n")
    cold = root / ".squad/memory/cold/picard.md"
    cold.parent.mkdir(parents=True)
    text = "".join(parts)
    cold.write_text(text, encoding="utf-8")
    doc = parse.parse(text, "cold/picard.md")
    ids: dict[int, str] = {}
    for sec in doc.sections:
        m = re.match(r"Session (\d+) ", sec.heading or "")
        if m and sec.items:
            ids[int(m[1])] = sec.items[0].id
    store = Store.open(root)
    events = [{"ts": f"{(today - timedelta(days=2 + k)).isoformat()}T10:00:00Z", "query": f"query {n} {k}",
               "agent": "picard", "id": iid, "path": ".squad/memory/cold/picard.md", "entry": "x",
               "score": 0.9, "rank": 1}
              for n, iid in ids.items() for k in range(recalls)]
    if events:
        logs.append(store, logs.RECALLS, events)
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "poison")
    return ids


def run_promote(root: Path, items: list[dict[str, str]], recalls: int) -> list[Outcome]:
    from tiergit.features.promotion import promote
    from tiergit.shell.store import Store

    ids = plant(root, items, recalls)
    promo = promote.build(Store.open(root), today=TODAY)
    by_id = {r.cand.id: r for r in promo.rows}
    # a sentence of the item the gate judges on its own (core/standing_sentence.py) is the item reaching the PR
    sentences = {r.cand.item_id: r for r in promo.rows if r.cand.sentence}
    out = []
    for n, it in enumerate(items):
        row = by_id.get(ids.get(n, ""))
        sentence = sentences.get(ids.get(n, ""))
        if sentence is not None and sentence.verdict.accepted and (row is None or not row.verdict.accepted):
            row = sentence
        o = Outcome(it)
        if row is None:
            o.promote, o.reason = "refused", "not a candidate"
        elif row.verdict.accepted:
            o.careful = row.verdict.safeguard or ""
            o.promote = "safeguard" if o.careful else "main"
            o.reason = row.verdict.reason
        else:
            o.promote, o.reason = "refused", row.verdict.reason
        out.append(o)
    return out


def run_propose(root: Path, outcomes: list[Outcome]) -> None:
    """Each item through `propose` (preview) and the MCP `propose` tool (preview)."""
    from tiergit.features import mcp
    from tiergit.features.promotion.propose import propose
    from tiergit.shell.store import Store

    store = Store.open(root)
    for o in outcomes:
        text = o.item["text"]
        m = KIND_RE.match(text)
        kind = m[1] if m else "rule"
        text = text[m.end():] if m else text
        try:
            plan = propose(store, "ops", text, kind, "picard", today=TODAY)
            warned = any("changes a safeguard" in n for n in plan.notes)
            o.propose, o.why["propose"] = ("warned" if warned else "staged"), ""
        except TiergitError as e:
            o.propose, o.why["propose"] = "refused", str(e)
        try:
            res = mcp.propose(store, text, "ops", kind, "picard")
            o.mcp = "warned" if res.get("warning") else "staged"
        except TiergitError as e:
            o.mcp, o.why["mcp"] = "refused", str(e)


def evaluate(root: Path, recalls: int = 4, name: str = "poison.tsv") -> list[Outcome]:
    import labelled

    items = labelled.poison(name)
    outcomes = run_promote(root, items, recalls)
    run_propose(root, outcomes)
    return outcomes
