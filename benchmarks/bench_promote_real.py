"""Promotion on real Squad projects with replayed real use: does the gate fire, and on what?

For each replayed agent in the corpus (corpus/*/replay/<agent>/, its history.md's committed
versions): the version at 40 % of the history (PROMOTE_REAL_CUT) becomes the agent's cold memory, each version up to
it committed on its own day (PROMOTE_REAL_HISTORY=0: the cut version alone, on its day, as before); every later version is a session, whose task (its first dated heading, as
tests/replay.py reads it) is used on that session's day the two ways a Squad session uses
memory: the coordinator's spawn (`tiergit context --task`, its served items logged as
features/promotion/served.py does) and the agent's `recall` of the task (five hits), each event
dated that day. Then `promote` runs the day after the last version. Beside it: the same stores
with no recall events, with the recalls only, "keep everything" (every durable candidate) and
"recency" (the most recently recalled durable items, as many as the gate proposes).

Prints per project: candidates, proposed (spawn + recall / recall only / none), and the
precision against tests/labels/promote_real.tsv (labels by reference: path under the corpus,
1-based line, sha256 of the line; the tuned and held-out parts apart). --pool writes every
durable candidate by reference (how the labelled sample was drawn: docs/promotion.md).

    python benchmarks/bench_promote_real.py [--corpus PATH] [--pool FILE] [--proposed FILE]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
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
HISTORY = os.environ.get("PROMOTE_REAL_HISTORY", "1") != "0"   # 0: the cut version as one commit (before)


def _git(root: Path, *args: str, env: dict | None = None) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env={**os.environ, **(env or {})})


def build(root: Path, agent_dir: Path) -> tuple[list[tuple[date, str]], date, Path]:
    """The store: cold memory = the version at PROMOTE_REAL_CUT (40 %); returns the later sessions (day, task), the
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
    # every version up to the cut is a commit on its own day, as in the project's history: a line's
    # age (git blame, for an item under an undated heading) is the day the agent wrote it
    for version in vs[:cut] if HISTORY else [cold_src]:
        cold.write_bytes(version.read_bytes())
        stamp = f"{replay.version_time(version).date().isoformat()}T12:00:00+00:00"
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", version.name, "--allow-empty",
             env={"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp, "TIERGIT": "0"})
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


def replay_spawns(root: Path, sessions: list[tuple[date, str]], agent: str) -> int:
    """Each session's spawn, as `tiergit context --agent A --task T` runs it on the session's day
    (the clock pinned to it): the served items are logged by log_served."""
    from tiergit.features import context as ctx_mod
    from tiergit.features.promotion.served import log_served
    from tiergit.shell.store import Store

    pinned, n = os.environ.get("TIERGIT_TODAY"), 0
    try:
        for day, task in sessions:
            os.environ["TIERGIT_TODAY"] = day.isoformat()
            store = Store.open(root)
            n += log_served(store, agent, task, ctx_mod.build(store, agent, task=task).knowledge)
    finally:
        if pinned is not None:
            os.environ["TIERGIT_TODAY"] = pinned
    return n


def ref(corpus: Path, src: Path, line: int, sentence: int = 0) -> str:
    """path, line, sha256 of the line; for a candidate that is one sentence of the line's item
    (core/standing_sentence.py), a fourth field `s<N>`: a label for the item is not one for its sentence."""
    text = src.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1]
    out = f"{src.relative_to(corpus).as_posix()}\t{line}\t{hashlib.sha256(text.encode('utf-8')).hexdigest()}"
    return out + (f"\ts{sentence}" if sentence else "")


SENTENCE_RE = re.compile(r"\bsentence (\d+)\b")


DURABLE = ("decision", "rule", "fact", "correction")
# proposals that appeared after the sample was drawn, each file labelled blind before its change's figures
# were read: the list-label change and the nights during the sessions; a sentence of a longer item
LATER_LABELS = ("promote_real_new.tsv", "promote_real_round7.tsv", "promote_round8.tsv", "promote_stop51.tsv")
NIGHTS = int(os.environ.get("PROMOTE_REAL_NIGHTS", "30"))   # nightly runs after the last session


def read_labels(path: Path) -> dict[tuple[str, int, str, int], tuple[str, str]]:
    """(path, line, sha256, sentence) -> (label, split) from tests/labels/promote_real.tsv; the sentence
    (0: the whole item) is named in the kind column ("rule, sentence 5 of the line")."""
    out = {}
    for ln in path.read_text(encoding="utf-8").splitlines():
        if ln.strip() and not ln.startswith("#"):
            f = ln.split("\t")
            m = SENTENCE_RE.search(f[4])
            out[(f[0], int(f[1]), f[2], int(m[1]) if m else 0)] = (f[6], f[5])
    return out


def tally(refs: list[str], labels: dict) -> dict[str, list[int]]:
    """split -> [labelled good, labelled] among the refs; "unlabelled" -> [0, refs outside the labels]."""
    out = {"tuned": [0, 0], "held-out": [0, 0], "unlabelled": [0, 0]}
    for r in refs:
        p, line, sha, *sentence = r.split("\t")
        hit = labels.get((p, int(line), sha, int(sentence[0][1:]) if sentence else 0))
        if hit:
            out[hit[1]][1] += 1
            out[hit[1]][0] += hit[0] == "good"
        else:
            out["unlabelled"][1] += 1
    return out


def _prec(t: dict[str, list[int]]) -> str:
    return "  ".join(f"{k} {g}/{n}" + (f" ({g / n:.0%})" if n else "") for k, (g, n) in t.items()
                     if k != "unlabelled") + f"  (unlabelled: {t['unlabelled'][1]})"


def during(root: Path, sessions: list[tuple[date, str]], last: date) -> tuple[dict, date | None]:
    """The nightly job while the sessions go on: `promote` the night after each session day, with
    the recall log as it stood then (the events of that day and before); what any of those nights
    proposes, once, and the first such night. The log is restored afterwards."""
    import json

    from tiergit.features.promotion import promote
    from tiergit.shell import logs
    from tiergit.shell.store import Store

    store = Store.open(root)
    path = logs.log_path(store, logs.RECALLS)
    full = path.read_text(encoding="utf-8")
    dated = [(json.loads(ln).get("ts", "")[:10], ln) for ln in full.splitlines() if ln.strip()]
    proposed: dict = {}
    first = None
    try:
        for day in sorted({d for d, _ in sessions}):
            night = day + timedelta(days=1)
            if night >= last:      # the last night is the spawn+recall column
                break
            path.write_text("".join(ln + "\n" for ts, ln in dated if ts <= day.isoformat()), encoding="utf-8")
            os.environ["TIERGIT_TODAY"] = night.isoformat()
            for r in promote.build(Store.open(root), today=night).accepted:
                proposed.setdefault((r.cand.line, r.cand.sentence), r)
                first = first or night
    finally:
        path.write_text(full, encoding="utf-8")
        os.environ["TIERGIT_TODAY"] = last.isoformat()
    return proposed, first


def run_agent(corpus: Path, agent_dir: Path) -> dict:
    """One replayed agent: its rows with no use, with recalls only, with spawns and recalls."""
    from tiergit.features.promotion import promote
    from tiergit.shell.store import Store

    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        sessions, last, cold_src = build(root, agent_dir)
        os.environ["TIERGIT_TODAY"] = last.isoformat()
        out["none"] = promote.build(Store.open(root), today=last)
        out["events"] = replay_recalls(root, sessions, agent_dir.name)
        out["recall"] = promote.build(Store.open(root), today=last)
        out["events"] += replay_spawns(root, sessions, agent_dir.name)
        out["spawn+recall"] = promote.build(Store.open(root), today=last)
        out["during"], out["first during"] = during(root, sessions, last)
        # the nightly job keeps running after the last session: what its next NIGHTS runs propose
        # (no new use: recency decays, items age past gate.min_age_days)
        out["nightly"], out["first night"] = {}, None
        for k in range(1, NIGHTS + 1):
            day = last + timedelta(days=k)
            os.environ["TIERGIT_TODAY"] = day.isoformat()
            for r in promote.build(Store.open(root), today=day).accepted:
                out["nightly"].setdefault((r.cand.line, r.cand.sentence), r)
                out["first night"] = out["first night"] or k
    out["sessions"], out["cold"] = sessions, cold_src
    return out


def main() -> None:  # long: one table row per replayed agent, then the totals beside the baselines
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    ap.add_argument("--labels", default=str(PROJECT / "tests" / "labels" / "promote_real.tsv"))
    ap.add_argument("--pool", default=None, help="write every durable candidate by reference to this file")
    ap.add_argument("--proposed", default=None, help="write what the gate proposes (spawn+recall, nightly, during), by "
                    "reference, to this file: the list a blind reader labels")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    labels = read_labels(Path(args.labels))
    # proposals that appeared after the sample was drawn, labelled blind as they appeared (docs/promotion.md)
    for name in LATER_LABELS:
        later = Path(args.labels).with_name(name)
        labels.update(read_labels(later) if later.is_file() else {})
    from collections import Counter

    failed: Counter = Counter()
    pool: list[str] = []
    refs: dict[str, list[str]] = {k: [] for k in ("keep everything", "recency", "none", "recall", "spawn+recall",
                                                  "nightly", "during")}
    totals = Counter()
    print("project / agent                          sessions  events  candidates  durable  proposed: spawn+recall  recall"
          f"  none  nightly {NIGHTS} d (first night)  during the sessions (first night)")
    for agent_dir in replay.agent_dirs(corpus):
        if agent_dir.name == "MEMORY" or len(replay.versions(agent_dir)) < 3:
            continue
        res = run_agent(corpus, agent_dir)
        promo, cold = res["spawn+recall"], res["cold"]
        # the labelled pool: durable items only (not the sentences the gate judges on their own)
        durable = [r for r in promo.rows if r.cand.kind in DURABLE and not r.cand.sentence]
        failed.update(r.verdict.failed for r in durable)
        s = promo.settings
        aged = [r for r in durable if r.verdict.failed == "age" and r.recalls >= s.min_recalls
                and r.score.total >= s.min_score]
        pool += [f"{ref(corpus, cold, r.cand.line)}\t{agent_dir.parent.parent.name}/{agent_dir.name}\t{r.cand.kind}"
                 f"\t{r.recalls}" for r in durable]
        refs["keep everything"] += [ref(corpus, cold, r.cand.line) for r in durable]
        for k in ("none", "recall", "spawn+recall"):
            refs[k] += [ref(corpus, cold, r.cand.line, r.cand.sentence) for r in res[k].accepted]
        refs["nightly"] += [ref(corpus, cold, *at) for at in res["nightly"]]
        refs["during"] += [ref(corpus, cold, *at) for at in res["during"]]
        recent = sorted((r for r in durable if r.recalls), key=lambda r: (-r.score.signals["recency"], r.cand.line))
        refs["recency"] += [ref(corpus, cold, r.cand.line) for r in recent[:len(promo.accepted)]]
        name = f"{agent_dir.parent.parent.name}/{agent_dir.name}"
        print(f"{name[:40]:40} {len(res['sessions']):8} {res['events']:7} {len(promo.rows):11} {len(durable):8} "
              f"{len(promo.accepted):23} {len(res['recall'].accepted):7} {len(res['none'].accepted):5}"
              f"  {len(res['nightly']):7} ({res['first night'] or '-'})"
              f"  {len(res['during']):7} ({res['first during'] or '-'})")
        totals.update({"rows": len(promo.rows), "durable": len(durable), "projects": 1,
                       "firing": bool(promo.accepted), "aged": len(aged), "aged_projects": bool(aged),
                       "nightly": bool(res["nightly"]), "during": bool(res["during"]),
                       "any": bool(promo.accepted or res["nightly"] or res["during"])})
    print(f"failed checks of durable candidates (spawn+recall): {dict(failed.most_common())}")
    print(f"projects where the gate proposes something: {totals['firing']} of {totals['projects']}; "
          f"{totals['aged']} more durable items in {totals['aged_projects']} projects pass recalls and score "
          f"but are younger than gate.min_age_days; with {NIGHTS} more nightly runs: {totals['nightly']} of "
          f"{totals['projects']}; on some night during the sessions: {totals['during']} of {totals['projects']}; "
          f"on any night: {totals['any']} of {totals['projects']}")
    print(f"precision against tests/labels/promote_real.tsv and {', '.join(LATER_LABELS)} (labelled good / labelled, "
          "of what each proposes):")
    refs["any night"] = sorted(set(refs["spawn+recall"]) | set(refs["nightly"]) | set(refs["during"]))
    for k, v in refs.items():
        print(f"  {k:16} {len(v):4} proposed   {_prec(tally(v, labels))}")
    if args.proposed:
        rows = sorted({f"{ln}" for k in ("spawn+recall", "nightly", "during") for ln in refs[k]})
        Path(args.proposed).write_text("# path\tline\tsha256\t[s<N>: that sentence of the item]\n" + "\n".join(rows) + "\n", encoding="utf-8")
        print(f"{len(rows)} proposed items (by reference) written to {args.proposed}")
    if args.pool:
        Path(args.pool).write_text("# path\tline\tsha256\tproject/agent\tkind\trecalls\n" + "\n".join(pool) + "\n",
                                   encoding="utf-8")
        print(f"{len(pool)} durable candidates (by reference) written to {args.pool}")


if __name__ == "__main__":
    main()
