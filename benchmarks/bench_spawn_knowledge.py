"""Knowledge at spawn: does the spawn prompt carry what the session goes on to reuse, and at what cost?

Run: .venv/bin/python benchmarks/bench_spawn_knowledge.py [--max-sessions N] [--project SUBSTR] [--show]

Method (reproducible, no judgement calls):
- Every corpus replay (`*/replay/<agent>/NNN_<date>_<commit>.md`, oldest first):
  session k's notes are the lines version k adds to version k-1; its task is the
  notes' first dated heading. The store at session k is, with --mode import (the
  default), a team adopting tiergit: `tiergit import squad --apply` of version k-1
  (entries verbatim in cold and the archive); with --mode sessions, the store
  tiergit itself built, session by session, as in bench_replay.py (`session
  start`, notes into hot, `session end`, then `archive` and the budget fit as a
  team's daily run would). Then `session start --task <title>`.
- Before session k (k >= 3, so there is history) each load is measured:
  legacy  = the agent's whole history.md at version k-1 (what it loaded before);
  hot     = the hot file `session start` wrote;
  hot+cold = hot plus the whole cold file;
  spawn   = `context --agent A --task <title>` (hot, task-relevant items, wiki index);
  all tiers = every file of the store whole (hot, cold, archive, staging, wiki):
  the most any retrieval from the tiers could find, since compaction keeps ~10 %.
- "Knowledge needed" by session k = the distinctive terms of its notes that
  already occur in earlier sessions' notes, minus the terms of its own title
  (the task gives those away); only lines the session wrote count (not the
  earlier heading the replay repeats above a run). Distinctive terms: identifiers (CamelCase,
  snake_case, dotted.names, words mixing letters and digits), file names
  (`x.ts`, `a/b`), backticked code, and rare words (>= 7 letters, in at most 2
  earlier sessions). A load "hits" a term when it contains it (case-insensitive).
- Hit rate = hits / needed over all sessions; tokens = mean tokens per spawn (tiktoken).
Also printed: the median time of a task-aware `context` build (in import mode
the store is fresh, so the recall index is built then) beside the same build
without a task (hot only, after a warm-up), measured in the same run.
Printed per project and overall, with the target: spawn >= 80 % of legacy's hit rate
at <= 20 % of its tokens.
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "tests"))

import replay  # noqa: E402

from tiergit.features import context, retention, session
from tiergit.features.importing import importer
from tiergit.shell import config, tokens  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402

CORPUS = PROJECT.parent / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")
WARMUP = 3
TIMES: dict[str, list[float]] = {"hot only": [], "task-aware": []}   # seconds per `context` build
LOADS = ("legacy", "hot", "hot+cold", "spawn", "all tiers")
IDENT_RE = re.compile(r"\b(?:[A-Za-z]+[a-z0-9]*[A-Z]\w*|\w+_\w+|\w+(?:\.\w+)+|[A-Za-z]+\d+\w*)\b")
PATH_RE = re.compile(r"[\w.-]+/[\w./-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|py|cs|md|json|ya?ml|sh|css|html|razor|toml)\b")
CODE_RE = re.compile(r"`([^`\n]{3,60})`")
WORD_RE = re.compile(r"\b[a-z]{7,}\b")


def distinctive(text: str) -> set[str]:
    """Identifiers, file names and code spans (lowercased); rare words are judged by the caller."""
    found = {m.lower() for m in IDENT_RE.findall(text) if len(m) >= 4}
    found |= {m.lower().strip("./-") for m in PATH_RE.findall(text) if len(m) >= 4}
    found |= {m.strip().lower() for m in CODE_RE.findall(text)}
    return {t for t in found if not re.fullmatch(r"[\d.:-]+", t)}


def needed(notes: str, task: str, history: list[str], word_df: Counter, previous: str) -> set[str]:
    """The terms session `notes` reuses from earlier sessions (see the module docstring).

    Only the lines the session wrote count: the replay repeats the heading a run sits under,
    and that line is the earlier session's, not this one's."""
    old_lines = set(previous.splitlines())
    notes = "\n".join(line for line in notes.splitlines() if line not in old_lines)
    earlier = "\n".join(history).lower()
    words = {w for w in WORD_RE.findall(notes.lower()) if 0 < word_df[w] <= 2}
    terms = {t for t in distinctive(notes) | words if t in earlier}
    return {t for t in terms if t not in task.lower()}


def hit_count(terms: set[str], load: str) -> int:
    low = load.lower()
    return sum(1 for t in terms if t in low)


def make_store(base: Path, spawn_cfg: str = "") -> Store:
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    (base / ".tiergit.yml").write_text(config.preset_text("squad") + spawn_cfg)
    return Store.open(base)


def replay_agent(agent_dir: Path, base: Path, max_sessions: int | None, show: bool, spawn_cfg: str = "",
                 mode: str = "import") -> dict:
    agent = agent_dir.name.lower()
    store = make_store(base / "sessions", spawn_cfg)
    fig = {load: {"hits": 0, "tokens": 0} for load in LOADS}
    fig.update(sessions=0, needed=0)
    previous, history, word_df = "", [], Counter()
    for n, version in enumerate(replay.versions(agent_dir)):
        if max_sessions and fig["sessions"] >= max_sessions:
            break
        current = version.read_text(encoding="utf-8", errors="replace")
        notes = replay.new_text(previous, current)
        if not notes.strip():
            previous = current
            continue
        when = replay.version_time(version)
        task = replay.task_of(notes, version.stem)
        if n >= WARMUP:
            terms = needed(notes, task, history, word_df, previous)
            at = store if mode == "sessions" else imported_store(base / f"import-{n}", agent, previous, spawn_cfg)
            session.start(at.config, agent, task, force=True, now=when)
            loads = spawn_loads(at, agent, task, previous, at.config.tier_file("hot", agent=agent).read_text())
            measure(fig, terms, loads, store.config.tokenizer)
            if show:
                print(f"  {agent} {version.stem[:14]} need {len(terms):>3}  " + "  ".join(
                    f"{k} {hit_count(terms, v)}" for k, v in loads.items()) + f"  | {task[:50]}")
        if mode == "sessions":
            run_session(store, agent, task, notes, when)
        history.append(notes)
        word_df.update(set(WORD_RE.findall(notes.lower())))
        previous = current
    return fig


def run_session(store: Store, agent: str, task: str, notes: str, when) -> None:
    """One replayed session through tiergit: start, notes into hot, end, then the daily maintenance."""
    cfg = store.config
    hot = cfg.tier_file("hot", agent=agent)
    if not hot.is_file() or task not in hot.read_text():
        session.start(cfg, agent, task, force=True, now=when)
    hot.write_text(hot.read_text().rstrip("\n") + "\n\n" + notes)
    session.end(cfg, agent, now=when)
    maintain(store, when.date())


def imported_store(base: Path, agent: str, history_text: str, spawn_cfg: str) -> Store:
    """A store adopted from the history as it stood: `tiergit import squad --apply` on version k-1."""
    store = make_store(base, spawn_cfg)
    legacy = base / ".squad" / "agents" / agent / "history.md"
    legacy.parent.mkdir(parents=True)
    legacy.write_text(history_text)
    store = Store.open(base)
    plan, _results = importer.plan_squad(store, retire_legacy=False)
    plan.apply(store.repo)
    return Store.open(base)


def spawn_loads(store: Store, agent: str, task: str, legacy: str, hot_text: str) -> dict[str, str]:
    cold_path = store.config.tier_file("cold", agent=agent)
    cold = cold_path.read_text() if cold_path.is_file() else ""
    context.build(store, agent, task="")          # warm-up: config, token cache, hot file
    t0 = time.perf_counter()
    context.build(store, agent, task="")          # the floor: the same prompt without a task (hot only)
    t1 = time.perf_counter()
    prompt = context.build(store, agent, task=task).prompt
    TIMES["hot only"].append(t1 - t0)
    TIMES["task-aware"].append(time.perf_counter() - t1)
    everything = "\n".join(p.read_text(errors="replace") for p in sorted(store.root.rglob("*.md"))
                           if "templates" not in p.parts)
    return {"legacy": legacy, "hot": hot_text, "hot+cold": hot_text + "\n" + cold, "spawn": prompt,
            "all tiers": everything}


def measure(fig: dict, terms: set[str], loads: dict[str, str], enc: str) -> None:
    fig["sessions"] += 1
    fig["needed"] += len(terms)
    for name, text in loads.items():
        fig[name]["hits"] += hit_count(terms, text)
        fig[name]["tokens"] += tokens.count_text(text, enc).tokens


def maintain(store: Store, today) -> None:
    """What the team's daily run does: archive what aged out, fit tiers over budget."""
    fresh = Store.open(store.repo)
    retention.plan_archive(fresh, today).apply(fresh.repo)
    fresh = Store.open(store.repo)
    retention.plan_fit(fresh, today).apply(fresh.repo)


def row(name: str, figs: list[dict]) -> str:
    sessions = sum(f["sessions"] for f in figs)
    need = sum(f["needed"] for f in figs) or 1
    cells = []
    for load in LOADS:
        hits = sum(f[load]["hits"] for f in figs)
        tok = sum(f[load]["tokens"] for f in figs) / max(sessions, 1)
        cells.append(f"{tok:>8.0f} {100 * hits / need:>5.1f}%")
    return f"{name:<34} {sessions:>4} {need:>6}  " + "  ".join(cells)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-sessions", type=int, default=None, help="measured sessions per agent (default: all)")
    ap.add_argument("--project", default="", help="only replays whose project folder contains this")
    ap.add_argument("--show", action="store_true", help="one line per measured session")
    ap.add_argument("--mode", choices=("import", "sessions"), default="import",
                    help="import: the store is `import squad` of the history as it stood (default); "
                         "sessions: built by tiergit's own session end (compacted, ~10 %% kept)")
    ap.add_argument("--spawn", default="", help="a `spawn:` setting to try, e.g. '{min_score: 0.2}'")
    args = ap.parse_args()
    spawn_cfg = f"spawn: {args.spawn}\n" if args.spawn else ""
    by_project: dict[str, list[dict]] = {}
    for agent_dir in replay.agent_dirs(CORPUS):
        project = agent_dir.parent.parent.name
        if args.project not in project:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            fig = replay_agent(agent_dir, Path(tmp), args.max_sessions, args.show, spawn_cfg, args.mode)
        by_project.setdefault(f"{project}/{agent_dir.name}", []).append(fig)
    head = "  ".join(f"{load:>8} {'hit':>6}" for load in LOADS)
    print(f"{'replay':<34} {'sess':>4} {'needed':>6}  {head}")
    print(f"{'':<34} {'':>4} {'':>6}  " + "  ".join(f"{'tokens':>8} {'':>6}" for _ in LOADS))
    every = []
    for name, figs in by_project.items():
        every += figs
        print(row(name, figs))
    print(row("overall", every))
    print(f"mode: {args.mode}")
    verdict(every)
    if TIMES["task-aware"]:
        print("context build, median ms: task-aware {:.1f} beside hot only {:.1f} (floor, same run)".format(
            1000 * statistics.median(TIMES["task-aware"]), 1000 * statistics.median(TIMES["hot only"])))


def verdict(figs: list[dict]) -> None:
    need = sum(f["needed"] for f in figs) or 1
    rate = {load: sum(f[load]["hits"] for f in figs) / need for load in LOADS}
    tok = {load: sum(f[load]["tokens"] for f in figs) for load in LOADS}
    share_hits = rate["spawn"] / rate["legacy"] if rate["legacy"] else 0.0
    share_tokens = tok["spawn"] / tok["legacy"] if tok["legacy"] else 0.0
    ok = share_hits >= 0.8 and share_tokens <= 0.2
    print(f"task-aware spawn: {100 * share_hits:.1f}% of legacy's hit rate at {100 * share_tokens:.1f}% of its "
          f"tokens (target >= 80% at <= 20%): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
