"""Replay every real history.md version pair in the corpus as one session each and
print tokens kept in cold / tokens of session notes in (the seeds' target: ~10 %).

Run: .venv/bin/python benchmarks/bench_replay.py [--runs 3]
Each agent is replayed into a fresh store; `session start`, the notes appended to hot,
then `session end` (in-process, the same functions the CLI calls). The time per session
is the median over the runs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "tests"))

import replay  # noqa: E402

from tiergit.core import parse
from tiergit.features import session
from tiergit.shell import config, tokens  # noqa: E402

CORPUS = Path(os.environ.get("TIERGIT_CORPUS", PROJECT.parent / "shared" / "corpus"))


def make_store(base: Path) -> config.Config:
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    (base / ".tiergit.yml").write_text(config.preset_text("squad"))
    return config.load(base)


def replay_agent(agent_dir: Path, base: Path) -> dict:
    cfg = make_store(base)
    agent = agent_dir.name
    hot = cfg.tier_file("hot", agent=agent)
    figures = {"agent": agent, "sessions": 0, "notes_tokens": 0, "tokens_in": 0, "tokens_kept": 0,
               "tokens_verbatim": 0, "tokens_head": 0, "entries": 0, "words_in": 0, "words_kept": 0, "seconds": [], "hot_max_tokens": 0}
    previous = ""
    for version in replay.versions(agent_dir):
        current = version.read_text()
        notes = replay.new_text(previous, current)
        previous = current
        if not notes.strip():
            continue
        when = replay.version_time(version)
        t0 = time.perf_counter()
        session.start(cfg, agent, replay.task_of(notes, version.stem), now=when)
        hot.write_text(hot.read_text().rstrip("\n") + "\n\n" + notes)
        result = session.end(cfg, agent, now=when)
        figures["seconds"].append(time.perf_counter() - t0)
        figures["sessions"] += 1
        figures["notes_tokens"] += tokens.count_text(notes, cfg.tokenizer).tokens
        figures["tokens_in"] += result.report["tokens_in"]
        figures["tokens_kept"] += result.report["tokens_kept"]
        figures["tokens_verbatim"] += result.report.get("tokens_verbatim", 0)
        figures["words_in"] += len(notes.split())
        figures["words_kept"] += len(result.report.get("entry", "").split())
        if result.report["entry_written"]:
            figures["entries"] += 1
            head = "".join(result.report["entry"].splitlines(keepends=True)[:2])   # heading and marker
            figures["tokens_head"] += tokens.count_text(head, cfg.tokenizer).tokens
        figures["hot_max_tokens"] = max(figures["hot_max_tokens"], result.report["hot_after"]["tokens"])
    cold = cfg.tier_file("cold", agent=agent).read_text()
    figures["cold_items"] = len(parse.parse(cold, "cold").items)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rows = {}
    for _ in range(args.runs):
        for agent_dir in replay.agent_dirs(CORPUS):
            if agent_dir.name == "MEMORY":
                continue  # OpenClaw's MEMORY.md versions are not session notes of one agent
            with tempfile.TemporaryDirectory() as tmp:
                fig = replay_agent(agent_dir, Path(tmp))
            rows.setdefault(fig["agent"], []).append(fig)
    print(f"{'agent':<8} {'sessions':>8} {'notes tok':>10} {'in tok':>8} {'kept tok':>9} {'kept %':>7} "
          f"{'hot max':>8} {'ms/session (median)':>20}")
    total_in = total_kept = total_notes = total_verbatim = words_in = words_kept = total_head = entries = 0
    for agent, figs in rows.items():
        f = figs[0]
        ms = statistics.median(statistics.median(x["seconds"]) for x in figs) * 1000
        total_in += f["tokens_in"]
        total_kept += f["tokens_kept"]
        total_notes += f["notes_tokens"]
        total_verbatim += f["tokens_verbatim"]
        total_head += f["tokens_head"]
        entries += f["entries"]
        words_in += f["words_in"]
        words_kept += f["words_kept"]
        print(f"{agent:<8} {f['sessions']:>8} {f['notes_tokens']:>10} {f['tokens_in']:>8} {f['tokens_kept']:>9} "
              f"{100 * f['tokens_kept'] / f['tokens_in']:>6.1f}% {f['hot_max_tokens']:>8} {ms:>20.1f}")
    print(f"{'total':<8} {'':>8} {total_notes:>10} {total_in:>8} {total_kept:>9} {100 * total_kept / total_in:>6.1f}%")
    print(f"tokens kept / tokens in (session notes incl. the hot template): {total_kept}/{total_in} = "
          f"{100 * total_kept / total_in:.1f}%  (target ~10%)")
    rest = total_kept - total_verbatim - total_head
    print(f"of which items kept verbatim (never-compress, rules, facts): {total_verbatim} = "
          f"{100 * total_verbatim / total_in:.1f}%; entry headings and session markers ({entries} entries): "
          f"{total_head} = {100 * total_head / total_in:.1f}%; condensed context: {rest} = {100 * rest / total_in:.1f}%")
    print(f"tokens kept / tokens of the replayed history text alone: {total_kept}/{total_notes} = "
          f"{100 * total_kept / total_notes:.1f}%")
    print(f"words kept / words of the replayed history text: {words_kept}/{words_in} = "
          f"{100 * words_kept / words_in:.1f}%")


if __name__ == "__main__":
    main()
