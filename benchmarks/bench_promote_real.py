"""Promotion on real Squad projects with replayed real use: does the gate fire, and on what?

For each replayed agent in the corpus (corpus/*/replay/<agent>/, its history.md's committed
versions): the version at 40 % of the history (PROMOTE_REAL_CUT) becomes the agent's cold memory, committed on that
version's day; every later version is a session, whose task (its first dated heading, as
tests/replay.py reads it) is recalled on that session's day, as the coordinator's spawn and the
agent's `recall` would: one recall event per hit, dated that day. Then `promote` runs the day
after the last version. Baseline beside it: the same stores with no recall events (the gate
before real-use signals), and "keep everything" (every durable candidate).

Prints per project: candidates, proposed with and without replayed recalls, and writes the
proposed items by reference (path under the corpus, 1-based line, sha256 of the line) to
--sample, a seeded sample for labelling (tests/labels/promote_real.tsv holds the labels).

    python benchmarks/bench_promote_real.py [--corpus PATH] [--sample FILE] [--per-project 8]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "tests"))
sys.path.insert(0, str(PROJECT))

import replay  # noqa: E402

CUT = float(os.environ.get("PROMOTE_REAL_CUT", "0.4"))   # the share of versions that make the cold memory


def _git(root: Path, *args: str, env: dict | None = None) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env={**os.environ, **(env or {})})


def build(root: Path, agent_dir: Path) -> tuple[list[tuple[date, str]], date, Path]:
    """The store: cold memory = the version at 60 %; returns the later sessions (day, task), the
    day after the last version, and the version file used as cold."""
    vs = replay.versions(agent_dir)
    cut = max(1, int(len(vs) * CUT))
    cold_src = vs[cut - 1]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    _git(root, "config", "user.email", "t@example.com")
    _git(root, "config", "user.name", "t")
    (root / ".tiergit.yml").write_text("version: 1\npreset: squad\n")
    cold = root / ".squad/memory/cold" / f"{agent_dir.name}.md"
    cold.parent.mkdir(parents=True)
    cold.write_bytes(cold_src.read_bytes())
    day = replay.version_time(cold_src).date()
    stamp = f"{day.isoformat()}T12:00:00+00:00"
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "cold", env={"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp, "TIERGIT": "0"})
    sessions = []
    for old, new in zip(vs[cut - 1:], vs[cut:]):
        text = replay.new_text(old.read_text(encoding="utf-8", errors="replace"),
                               new.read_text(encoding="utf-8", errors="replace"))
        if text.strip():
            sessions.append((replay.version_time(new).date(), replay.task_of(text, agent_dir.name)))
    last = replay.version_time(vs[-1]).date() + timedelta(days=1)
    return sessions, last, cold_src


def replay_recalls(root: Path, sessions: list[tuple[date, str]], agent: str) -> int:
    from tiergit.features.recall import log_events, recall
    from tiergit.shell import logs
    from tiergit.shell.store import Store

    store = Store.open(root)
    events = []
    for day, task in sessions:
        hits, _ = recall(store, task, agent=None, limit=5, log=False)
        events += [dict(ev, ts=f"{day.isoformat()}T12:00:00Z") for ev in log_events(task, agent, hits)]
    logs.append(store, logs.RECALLS, events)
    return len(events)


def ref(corpus: Path, src: Path, line: int) -> str:
    text = src.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1]
    return f"{src.relative_to(corpus).as_posix()}\t{line}\t{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    ap.add_argument("--sample", default=None)
    ap.add_argument("--per-project", type=int, default=8)
    args = ap.parse_args()
    corpus = Path(args.corpus)
    from tiergit.features.promotion import promote
    from tiergit.shell.store import Store

    from collections import Counter

    failed: Counter = Counter()
    rng = random.Random(23)
    sample: list[str] = []
    totals = [0, 0, 0, 0]
    print("project / agent                          sessions  events  candidates  durable  proposed  (no recalls)")
    for agent_dir in replay.agent_dirs(corpus):
        if agent_dir.name == "MEMORY" or len(replay.versions(agent_dir)) < 3:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "repo"
            sessions, last, cold_src = build(root, agent_dir)
            os.environ["TIERGIT_TODAY"] = last.isoformat()
            before = promote.build(Store.open(root), today=last)
            n_events = replay_recalls(root, sessions, agent_dir.name)
            promo = promote.build(Store.open(root), today=last)
        durable = sum(r.cand.kind in ("decision", "rule", "fact", "correction") for r in promo.rows)
        failed.update(r.verdict.failed for r in promo.rows if r.cand.kind in ("decision", "rule", "fact", "correction"))
        name = f"{agent_dir.parent.parent.name}/{agent_dir.name}"
        print(f"{name[:40]:40} {len(sessions):8} {n_events:7} {len(promo.rows):11} {durable:8} "
              f"{len(promo.accepted):9}  ({len(before.accepted)})")
        totals = [totals[0] + len(promo.rows), totals[1] + durable, totals[2] + len(promo.accepted),
                  totals[3] + len(before.accepted)]
        picked = rng.sample(promo.accepted, min(args.per_project, len(promo.accepted)))
        for r in sorted(picked, key=lambda r: r.cand.line):
            sample.append(f"{ref(corpus, cold_src, r.cand.line)}\t{name}\t{r.cand.kind}\t{r.verdict.safeguard or ''}")
    print(f"failed checks of durable candidates: {dict(failed.most_common())}")
    print(f"total: {totals[0]} candidates, keep-everything baseline {totals[1]} durable items, "
          f"{totals[2]} proposed with replayed recalls, {totals[3]} without any")
    if args.sample:
        Path(args.sample).write_text("# path\tline\tsha256\tproject/agent\tkind\tsafeguard section\n"
                                     + "\n".join(sample) + "\n", encoding="utf-8")
        print(f"sample of {len(sample)} proposed items (by reference) written to {args.sample}")


if __name__ == "__main__":
    main()
