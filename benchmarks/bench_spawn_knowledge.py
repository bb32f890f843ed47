"""Knowledge at spawn beside the simple baselines: does the spawn carry what the session reuses, at what cost?

Run: .venv/bin/python benchmarks/bench_spawn_knowledge.py [--part tune|held-out|all] [--max-sessions N]
     [--project SUBSTR] [--show] [--mode import|sessions] [--spawn '{knowledge_tokens: 1500}']

Method (reproducible, no judgement calls):
- Every Squad replay in the corpus (`*/replay/<agent>/NNN_<date>_<commit>.md`, oldest
  first): session k's notes are the lines version k adds to version k-1; its task is the
  notes' first dated heading. The store at session k is, with --mode import (the
  default), a team adopting tiergit: `tiergit import squad --apply` of version k-1
  (entries verbatim in cold and the archive); with --mode sessions, the store
  tiergit itself built, session by session, as in bench_replay.py. Then `session start --task <title>`.
- The projects are split once by a seeded draw (HELD_OUT_SEED): HELD_OUT_COUNT projects are
  held out; tuning runs `--part tune` only, and the held-out part is read once for the report.
- Before session k (k >= 3, so there is history) each load is built; every baseline gets
  the same character budget as the task-aware spawn (template, hot and knowledge together):
  legacy   = the agent's whole history.md at version k-1 (what it loaded before);
  hot      = the hot file `session start` wrote;
  recency  = the agent's newest entries: the notes of sessions k-1, k-2, ... newest first,
             cut at the budget;
  bm25     = rank-bm25 (BM25Okapi) over the paragraphs of history.md at k-1, the task title
             as query, best paragraphs first while they fit the budget;
  spawn    = `context --agent A --task <title>`;
  spawn+1  = the spawn plus what `recall "<task>" --agent A -n 5` prints (leaving out what the
             spawn carried, as the CLI does after `context`);
  bm25+1   = the bm25 baseline at the spawn+1 budget;
  block    = the spawn's knowledge block alone (the selection, without the prompt around it),
  recency@b, bm25@b = the two baselines at the block's budget;
  oracle   = a reference, not a method: history.md's paragraphs chosen greedily by how many of
             the session's own needed terms (below) each adds per character, at the spawn's
             budget. It knows the answer, so it shows how much any selection of whole
             paragraphs could carry at that size (greedy: near the best, not a proof of it).
- "Knowledge needed" by session k = the distinctive terms of its notes that
  already occur in earlier sessions' notes, minus the terms of its own title
  (the task gives those away); only lines the session wrote count. Distinctive terms:
  identifiers (CamelCase, snake_case, dotted.names, words mixing letters and digits), file
  names (`x.ts`, `a/b`), backticked code, and rare words (>= 7 letters, in at most 2
  earlier sessions). A load "hits" a term when it contains it (case-insensitive).
- Hit rate = hits / needed over all sessions; tokens = mean tokens per load (tiktoken), and
  their share of legacy's.
Printed per replay, for the tuned part, the held-out part and pooled, with the issue's
targets: spawn >= 15 points above the better of recency and bm25; spawn+1 >= 15 points
above bm25+1; and the goal, >= 80 % of the reused knowledge at <= 20 % of legacy's tokens.
Also printed: the median time of a task-aware `context` build beside the same build
without a task (hot only), measured in the same run.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "tests"))

import replay  # noqa: E402
from rank_bm25 import BM25Okapi  # noqa: E402  (the test extra: a maintained BM25, never a runtime dependency)

from tiergit.core import knowledge_pack  # noqa: E402
from tiergit.features import context, recall, retention, session, spawn_carried  # noqa: E402
from tiergit.features.importing import importer  # noqa: E402
from tiergit.shell import config, tokens  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402

CORPUS = PROJECT.parent / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")
WARMUP = 3
HELD_OUT_SEED, HELD_OUT_COUNT = 22, 3
TIMES: dict[str, list[float]] = {"hot only": [], "task-aware": []}   # seconds per `context` build
LOADS = ("legacy", "hot", "recency", "bm25", "spawn", "spawn+1", "bm25+1", "block", "recency@b", "bm25@b", "oracle")
IDENT_RE = re.compile(r"\b(?:[A-Za-z]+[a-z0-9]*[A-Z]\w*|\w+_\w+|\w+(?:\.\w+)+|[A-Za-z]+\d+\w*)\b")
PATH_RE = re.compile(r"[\w.-]+/[\w./-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|py|cs|md|json|ya?ml|sh|css|html|razor|toml)\b")
CODE_RE = re.compile(r"`([^`\n]{3,60})`")
WORD_RE = re.compile(r"\b[a-z]{7,}\b")
BM25_TOKEN_RE = re.compile(r"\w+")


def squad_projects() -> list[str]:
    return sorted(d.name for d in CORPUS.iterdir() if (d / ".squad").is_dir() and (d / "replay").is_dir())


def held_out() -> set[str]:
    """The projects no tuning looks at: a seeded draw, the same on every run."""
    return set(random.Random(HELD_OUT_SEED).sample(squad_projects(), HELD_OUT_COUNT))


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


def recency_load(history: list[str], budget: int) -> str:
    """The agent's newest notes first, cut at `budget` characters."""
    out, used = [], 0
    for notes in reversed(history):
        take = notes[: max(budget - used, 0)]
        if not take:
            break
        out.append(take)
        used += len(take) + 1
    return "\n".join(out)


def bm25_load(history_text: str, task: str, budget: int) -> str:
    """rank-bm25 over the history's paragraphs, the task as query; best first while they fit."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", history_text) if p.strip()]
    if not paragraphs:
        return ""
    bm = BM25Okapi([BM25_TOKEN_RE.findall(p.lower()) or [""] for p in paragraphs])
    scores = bm.get_scores(BM25_TOKEN_RE.findall(task.lower()))
    out, used = [], 0
    for i in sorted(range(len(paragraphs)), key=lambda i: -scores[i]):
        if used + len(paragraphs[i]) + 1 <= budget:
            out.append(paragraphs[i])
            used += len(paragraphs[i]) + 1
    return "\n".join(out)


def oracle_load(history_text: str, terms: set[str], budget: int) -> str:
    """The paragraphs that add the most of `terms` per character, greedily, while they fit `budget`."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", history_text) if p.strip()]
    holds = [{t for t in terms if t in p.lower()} for p in paragraphs]
    out, used, got = [], 0, set()
    while True:
        best, gain = None, 0.0
        for i, p in enumerate(paragraphs):
            new = len(holds[i] - got)
            if new and used + len(p) + 1 <= budget and new / (len(p) + 1) > gain:
                best, gain = i, new / (len(p) + 1)
        if best is None:
            return "\n".join(out)
        out.append(paragraphs[best])
        used += len(paragraphs[best]) + 1
        got |= holds[best]
        holds[best] = set()


def make_store(base: Path, spawn_cfg: str = "") -> Store:
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    (base / ".tiergit.yml").write_text(config.preset_text("squad") + spawn_cfg)
    return Store.open(base)


def replay_agent(agent_dir: Path, base: Path, max_sessions: int | None, show: bool, spawn_cfg: str = "",
                 mode: str = "import", variants: dict[str, dict] | None = None) -> dict[str, dict]:
    """{variant: figures} over the agent's replayed sessions; each variant is a set of
    tiergit/core/knowledge_pack.py values tried on the same stores ("" = the defaults)."""
    variants = variants or {"": {}}
    agent = agent_dir.name.lower()
    store = make_store(base / "sessions", spawn_cfg)
    figs = {}
    for name in variants:
        figs[name] = {load: {"hits": 0, "tokens": 0} for load in LOADS}
        figs[name].update(sessions=0, needed=0, wins=0)
    previous, history, word_df = "", [], Counter()
    written: list[tuple[datetime, str]] = []    # history.md's versions so far, as the team's repository holds them
    done = 0
    for n, version in enumerate(replay.versions(agent_dir)):
        if max_sessions and done >= max_sessions:
            break
        current = version.read_text(encoding="utf-8", errors="replace")
        notes = replay.new_text(previous, current)
        when = replay.version_time(version)
        if not notes.strip():
            previous = current
            written.append((when, current))
            continue
        task = replay.task_of(notes, version.stem)
        if n >= WARMUP:
            done += 1
            terms = needed(notes, task, history, word_df, previous)
            at = store if mode == "sessions" else imported_store(base / f"import-{n}", agent, written, spawn_cfg)
            session.start(at.config, agent, task, force=True, now=when)
            for name, values in variants.items():
                with patched(values):
                    loads = spawn_loads(at, agent, task, previous, history)
                loads["oracle"] = oracle_load(previous, terms, len(loads["spawn"]))
                measure(figs[name], terms, loads, store.config.tokenizer)
                if show:
                    print(f"  {name or 'default'} {agent} {version.stem[:14]} need {len(terms):>3}  " + "  ".join(
                        f"{k} {hit_count(terms, v)}" for k, v in loads.items()) +
                        f"  chars legacy {len(loads['legacy'])} spawn {len(loads['spawn'])}  | {task[:50]}")
        if mode == "sessions":
            run_session(store, agent, task, notes, when)
        history.append(notes)
        written.append((when, current))
        word_df.update(set(WORD_RE.findall(notes.lower())))
        previous = current
    return figs


class patched:
    """Module values of tiergit/core/knowledge_pack.py set for a block, then restored."""
    def __init__(self, values: dict):
        self.values, self.old = values, {}

    def __enter__(self):
        for name, value in self.values.items():
            self.old[name] = getattr(knowledge_pack, name)
            setattr(knowledge_pack, name, value)

    def __exit__(self, *exc):
        for name, value in self.old.items():
            setattr(knowledge_pack, name, value)


def run_session(store: Store, agent: str, task: str, notes: str, when) -> None:
    """One replayed session through tiergit: start, notes into hot, end, then the daily maintenance."""
    cfg = store.config
    hot = cfg.tier_file("hot", agent=agent)
    if not hot.is_file() or task not in hot.read_text():
        session.start(cfg, agent, task, force=True, now=when)
    hot.write_text(hot.read_text().rstrip("\n") + "\n\n" + notes)
    session.end(cfg, agent, now=when)
    maintain(store, when.date())


def imported_store(base: Path, agent: str, written: list[tuple[datetime, str]], spawn_cfg: str) -> Store:
    """A store adopted from the history as it stood: `tiergit import squad --apply` on version k-1, in a
    repository whose history holds history.md's versions 1..k-1 as commits (as the team's does)."""
    store = make_store(base, spawn_cfg)
    rel = f".squad/agents/{agent}/history.md"
    commit_versions(base, rel, written)
    legacy = base / rel
    legacy.parent.mkdir(parents=True)
    legacy.write_text(written[-1][1] if written else "")
    store = Store.open(base)
    plan, _results = importer.plan_squad(store, retire_legacy=False)
    plan.apply(store.repo)
    return Store.open(base)


def commit_versions(repo: Path, rel: str, written: list[tuple[datetime, str]]) -> None:
    """Each version of `rel` as one commit on the current branch, oldest first, in one `git fast-import`
    (a version's time is its replay day at noon, plus one second per version before it)."""
    branch = subprocess.run(["git", "symbolic-ref", "HEAD"], cwd=repo, check=True, capture_output=True,
                            text=True).stdout.strip()
    stream = []
    for i, (when, text) in enumerate(written):
        data, stamp = text.encode("utf-8"), int(when.timestamp()) + i
        msg = f"history {i + 1}".encode()
        stream.append(f"commit {branch}\ncommitter bench <bench@example.com> {stamp} +0000\n".encode()
                      + f"data {len(msg)}\n".encode() + msg + b"\n"
                      + f"M 100644 inline {rel}\ndata {len(data)}\n".encode() + data + b"\n")
    if stream:
        subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
        subprocess.run(["git", "reset", "-q"], cwd=repo, check=True)     # the index matches HEAD


def spawn_loads(store: Store, agent: str, task: str, legacy: str, history: list[str]) -> dict[str, str]:
    hot_text = store.config.tier_file("hot", agent=agent).read_text()
    context.build(store, agent, task="")          # warm-up: config, token cache, hot file
    t0 = time.perf_counter()
    context.build(store, agent, task="")          # the floor: the same prompt without a task (hot only)
    t1 = time.perf_counter()
    spawn = context.build(store, agent, task=task)
    prompt, block = spawn.prompt, spawn.sections["knowledge"]
    TIMES["hot only"].append(t1 - t0)
    TIMES["task-aware"].append(time.perf_counter() - t1)
    spawn_carried.record(store, agent, spawn.knowledge)   # as `tiergit context` does: the recall brings the new
    hits, _stats = recall.recall(store, task, agent, limit=5, log=False, leave_out=spawn_carried.leave_out(store, agent))
    plus_one = prompt + "\n" + recall.render(task, agent, hits, 0, False, False, False)
    return {"legacy": legacy, "hot": hot_text, "recency": recency_load(history, len(prompt)),
            "bm25": bm25_load(legacy, task, len(prompt)), "spawn": prompt, "spawn+1": plus_one,
            "bm25+1": bm25_load(legacy, task, len(plus_one)), "block": block,
            "recency@b": recency_load(history, len(block)), "bm25@b": bm25_load(legacy, task, len(block))}


def measure(fig: dict, terms: set[str], loads: dict[str, str], enc: str) -> None:
    fig["sessions"] += 1
    fig["needed"] += len(terms)
    for name, text in loads.items():
        fig[name]["hits"] += hit_count(terms, text)
        fig[name]["tokens"] += tokens.count_text(text, enc).tokens
    if hit_count(terms, loads["spawn"]) > max(hit_count(terms, loads["bm25"]), hit_count(terms, loads["recency"])):
        fig["wins"] += 1


def maintain(store: Store, today) -> None:
    """What the team's daily run does: archive what aged out, fit tiers over budget."""
    fresh = Store.open(store.repo)
    retention.plan_archive(fresh, today).apply(fresh.repo)
    fresh = Store.open(store.repo)
    retention.plan_fit(fresh, today).apply(fresh.repo)


def rates(figs: list[dict]) -> tuple[dict[str, float], dict[str, float]]:
    """(hit rate in %, tokens as a share of legacy's in %) per load."""
    need = sum(f["needed"] for f in figs) or 1
    legacy = sum(f["legacy"]["tokens"] for f in figs) or 1
    return ({load: 100 * sum(f[load]["hits"] for f in figs) / need for load in LOADS},
            {load: 100 * sum(f[load]["tokens"] for f in figs) / legacy for load in LOADS})


def row(name: str, figs: list[dict]) -> str:
    sessions = sum(f["sessions"] for f in figs)
    hit, share = rates(figs)
    cells = "  ".join(f"{hit[load]:>5.1f}%@{share[load]:>5.1f}%" for load in LOADS)
    wins = sum(f["wins"] for f in figs)
    return f"{name:<38} {sessions:>4} {sum(f['needed'] for f in figs):>6} {wins:>4}  {cells}"


def verdict(name: str, figs: list[dict]) -> None:
    hit, share = rates(figs)
    print(f"{name}: the knowledge block alone {hit['block']:.1f}% beside recency {hit['recency@b']:.1f}% and bm25 "
          f"{hit['bm25@b']:.1f}% at its budget (the selection, without the prompt around it)")
    best = max(hit["recency"], hit["bm25"])
    lead, lead1 = hit["spawn"] - best, hit["spawn+1"] - hit["bm25+1"]
    goal = hit["spawn"] >= 80 and share["spawn"] <= 20
    print(f"{name}: spawn {hit['spawn']:.1f}% vs the better of recency/bm25 {best:.1f}%: {lead:+.1f} points "
          f"(target +15: {'met' if lead >= 15 else 'NOT met'}); spawn+1 {hit['spawn+1']:.1f}% vs bm25+1 "
          f"{hit['bm25+1']:.1f}%: {lead1:+.1f} (target +15: {'met' if lead1 >= 15 else 'NOT met'}); goal >= 80% "
          f"at <= 20% of legacy's tokens: {hit['spawn']:.1f}% at {share['spawn']:.1f}% "
          f"({'met' if goal else 'NOT met'})")
    print(f"{name}: the reference that knows the session's terms (oracle, whole paragraphs at the spawn's budget) "
          f"{hit['oracle']:.1f}%: {hit['oracle'] - best:+.1f} points over the better baseline; the spawn takes "
          f"{100 * (hit['spawn'] - best) / max(hit['oracle'] - best, 1e-9):.0f} % of that gap")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("tune", "held-out", "all"), default="tune",
                    help="tune: the projects tuning may look at (default); held-out: the others; all: both")
    ap.add_argument("--max-sessions", type=int, default=None, help="measured sessions per agent (default: all)")
    ap.add_argument("--project", default="", help="only replays whose project folder contains this")
    ap.add_argument("--show", action="store_true", help="one line per measured session")
    ap.add_argument("--mode", choices=("import", "sessions"), default="import",
                    help="import: the store is `import squad` of the history as it stood (default); "
                         "sessions: built by tiergit's own session end (compacted, ~10 %% kept)")
    ap.add_argument("--spawn", default="", help="a `spawn:` setting to try, e.g. '{knowledge_tokens: 1500}'")
    ap.add_argument("--try", dest="tries", action="append", default=[], metavar="'NAME=VALUE ...'",
                    help="a variant of tiergit/core/knowledge_pack.py's weights to try beside the defaults on the "
                         "same stores, e.g. --try 'W_RECENCY=1.0 RECENCY_HALF=25' (repeatable)")
    args = ap.parse_args()
    variants: dict[str, dict] = {"": {}}
    for text in args.tries:
        values = {}
        for setting in text.split():
            name, value = setting.split("=", 1)
            if not hasattr(knowledge_pack, name):
                raise SystemExit(f"--try {setting}: tiergit/core/knowledge_pack.py has no {name}")
            values[name] = float(value)
        variants[text] = values
    spawn_cfg = f"spawn: {args.spawn}\n" if args.spawn else ""
    out = held_out()
    parts: dict[str, list[dict]] = {"tune": [], "held-out": []}
    by_variant: dict[str, dict[str, list[dict]]] = {}
    print(f"held-out projects (seed {HELD_OUT_SEED}): {', '.join(sorted(out))}")
    head = "  ".join(f"{load:>13}" for load in LOADS)
    print(f"{'replay':<38} {'sess':>4} {'needed':>6} {'wins':>4}  {head}")
    print(f"{'':<38} {'':>4} {'':>6} {'':>4}  " + "  ".join(f"{'hit@tokens':>13}" for _ in LOADS))
    for agent_dir in replay.agent_dirs(CORPUS):
        project = agent_dir.parent.parent.name
        part = "held-out" if project in out else "tune"
        if project not in squad_projects() or args.project not in project or args.part not in ("all", part):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            figs = replay_agent(agent_dir, Path(tmp), args.max_sessions, args.show, spawn_cfg, args.mode, variants)
        for name, fig in figs.items():
            by_variant.setdefault(name, {"tune": [], "held-out": []})[part].append(fig)
        parts[part].append(figs[""])
        print(row(f"{project}/{agent_dir.name}" + (" (held out)" if part == "held-out" else ""), [figs[""]]),
              flush=True)
    for name, figs in (("tuned part", parts["tune"]), ("held-out part", parts["held-out"]),
                       ("pooled", parts["tune"] + parts["held-out"])):
        if figs:
            print(row(name, figs))
    print("hit@tokens: share of the reused terms the load holds @ its tokens as a share of legacy's; "
          "wins: sessions where spawn holds more than both recency and bm25")
    for name, figs in (("tuned part", parts["tune"]), ("held-out part", parts["held-out"]),
                       ("pooled", parts["tune"] + parts["held-out"])):
        if figs:
            verdict(name, figs)
    for name, split in by_variant.items():
        if name:
            verdict(f"variant {name!r}, pooled", split["tune"] + split["held-out"])
    print(f"mode: {args.mode}" + (f"; spawn: {args.spawn}" if args.spawn else ""))
    if TIMES["task-aware"]:
        print("context build, median ms: task-aware {:.1f} beside hot only {:.1f} (floor, same run)".format(
            1000 * statistics.median(TIMES["task-aware"]), 1000 * statistics.median(TIMES["hot only"])))


if __name__ == "__main__":
    main()
