"""Staleness on real projects: Squad histories checked against the repository they live in.

For each repository given (a git dir or work tree: the full project, code and `.squad/` together,
e.g. fetched public repositories the corpus README names; never committed), this clones it to a
temporary folder, reads every `.squad/agents/*/history.md` and `.squad/decisions.md` in place as
tiergit memory, and counts the items that cite repository paths or symbols, and those whose
citations no longer exist at HEAD (features/staleness.py). With --sample FILE it writes a seeded
random sample of flagged and unflagged citing items, by reference (repo, commit, path, line,
sha256 of the line), for two readers to label.

    .venv/bin/python benchmarks/bench_stale_repos.py /path/to/rally /path/to/helix.mcp --sample out.tsv
"""
from __future__ import annotations

import argparse
import hashlib
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG = """version: 1
preset: custom
root: .squad
tiers:
  cold: {path: "agents/{agent}/history.md", load: on-demand}
  decisions: {path: "decisions.md", load: on-demand}
archive: "tiergit-archive/"
logs: "tiergit-logs/"
"""


def study(src: str, tmp: Path) -> tuple[str, str, list, object]:
    from tiergit.features import staleness
    from tiergit.shell.store import Store

    name = Path(src.rstrip("/")).parent.name if src.rstrip("/").endswith("/repo") else Path(src).name
    work = tmp / name.replace("+", "_")
    subprocess.run(["git", "clone", "-q", src, str(work)], check=True)
    (work / ".tiergit.yml").write_text(CONFIG)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout.strip()
    store = Store.open(work)
    items = staleness.store_items(store)
    started = time.process_time()
    report = staleness.check(store, items)
    cpu = time.process_time() - started
    print(f"{name}: {len(items)} items, {report.checked} cite paths or symbols, {len(report.stale)} stale "
          f"({sum(1 for f in report.stale.values() if any(s.kind == 'path' for s in f))} by a path, "
          f"{sum(1 for f in report.stale.values() if any(s.kind == 'symbol' for s in f))} by a symbol), "
          f"check {cpu:.2f} s CPU")
    return name, head, items, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--sample", type=Path, help="write a labelling sample here")
    parser.add_argument("--per-class", type=int, default=40)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--spawn", action="store_true", help="also: stale items context serves, before and after")
    args = parser.parse_args()
    from tiergit.core.citations import cites

    flagged, clean = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for src in args.repos:
            name, head, items, report = study(src, Path(tmp))
            for it in items:
                if not cites(it.text):
                    continue
                line = (Path(tmp) / name.replace("+", "_") / it.path).read_text(errors="replace").splitlines()[it.line - 1]
                row = (name, head, it.path, it.line, hashlib.sha256(line.encode()).hexdigest(),
                       report.reason(it.path, it.line) or "")
                (flagged if row[5] else clean).append(row)
        if args.spawn:
            spawn_share(sorted(p for p in Path(tmp).iterdir() if p.is_dir()))
    print(f"pooled: {len(flagged)} flagged stale, {len(clean)} citing items not flagged")
    if args.sample:
        rng = random.Random(args.seed)
        picked = rng.sample(flagged, min(args.per_class, len(flagged))) + rng.sample(clean, min(args.per_class, len(clean)))
        rng.shuffle(picked)
        with args.sample.open("w") as out:
            out.write("# repo <TAB> commit <TAB> path <TAB> line <TAB> sha256 of the line <TAB> tiergit's reason (empty: not flagged)\n")
            for row in picked:
                out.write("\t".join(map(str, row)) + "\n")
        print(f"sample of {len(picked)} written to {args.sample}")


def spawn_share(src_dirs: list[Path]) -> None:
    """Of the knowledge items `context` serves each agent (task: the agent's newest entry title), how many
    are stale, with the check (today) and without it (before): the share served before and after."""
    import re

    from tiergit.features import context, staleness
    from tiergit.shell.store import Store

    real = staleness.for_spawn
    for work in src_dirs:
        store = Store.open(work)
        flagged = staleness.check(store, staleness.store_items(store)).stale
        served = {"before": [0, 0], "after": [0, 0]}
        for hist in sorted((work / ".squad/agents").glob("*/history.md")):
            agent = hist.parent.name
            titles = re.findall(r"^#{2,4} (.+)$", hist.read_text(errors="replace"), re.M)
            if not titles or not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", agent):
                continue
            for label, hook in (("before", lambda s, c, n: c), ("after", real)):
                staleness.for_spawn = hook
                try:
                    spawn = context.build(store, agent, task=titles[-1])
                except Exception:  # noqa: BLE001 - an agent the layout cannot spawn is skipped
                    continue
                finally:
                    staleness.for_spawn = real
                picks = spawn.knowledge.picks if spawn.knowledge else []
                served[label][0] += sum(1 for p in picks if (p.path, p.line) in flagged)
                served[label][1] += len(picks)
        for label, (stale, total) in served.items():
            print(f"  {work.name} spawn {label:<6}: {stale} stale of {total} served items "
                  f"({100 * stale / max(total, 1):.1f} %)")


if __name__ == "__main__":
    sys.exit(main())
