"""Retention on real projects: is imported knowledge still found by recall after a year?

For every corpus Squad project (a folder with .squad/agents/*/history.md): copy its
.squad/ (not replay/) into a fresh git repo, `tiergit init --preset squad`
(limits.max_file_bytes raised to 4 MB, as TG003's hint says, for the largest decisions.md),
`import squad --apply`, commit, then `archive --apply` with TIERGIT_TODAY 200 and 400
days ahead, committing after each. Sample up to --sample knowledge lines per project
(list items and bold-labelled paragraphs of 50+ characters from the legacy
histories, seeded) and look each up with `recall` (query = the item's own words,
top 10): found when a hit has the same text. Prints per project the % found, how many
hits came from files that left the tree, and the files in the tree - beside the floor
measured in the same run: the % found right after the import, before any archive. Also
per project: agents whose newest `keep_last` (3) cold entries are all still in cold after
+200 and after +400 days, and empty folders left under the archive (target: all, and 0).

Usage: python benchmarks/bench_retention.py [--sample 30] [--only NAME]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", ROOT.parent / "shared" / "corpus"))

from tiergit.core import parse  # noqa: E402
from tiergit.features.recall import recall  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402


def sh(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, cwd=repo, capture_output=True, text=True, env={**os.environ, **(env or {})})
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed in {repo}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def tg(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return sh(repo, sys.executable, "-m", "tiergit", *args, env=env)


def commit(repo: Path, msg: str) -> None:
    sh(repo, "git", "add", "-A")
    sh(repo, "git", "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", msg)


def sample(project: Path, n: int) -> list[str]:
    """Clean texts of knowledge items (50+ characters) from the legacy histories."""
    found = []
    for hist in sorted(project.glob(".squad/agents/*/history.md")):
        text = hist.read_bytes().decode("utf-8", "replace")
        doc = parse.parse(text, hist.name, None)
        found += [i.clean for i in doc.items if len(i.clean) >= 50 and i.text.lstrip().startswith(("-", "*", "+"))]
    found = sorted(set(found))
    random.Random(project.name).shuffle(found)
    return found[:n]


def norm(text: str) -> str:
    return " ".join(text.split()).lower()


def found(repo: Path, lines: list[str]) -> tuple[int, int]:
    store = Store.open(repo)
    hit = gone = 0
    for line in lines:
        hits, _ = recall(store, " ".join(line.split()[:40]), limit=10, log=False)
        match = next((h for h in hits if norm(h.text) == norm(line)), None)
        hit += match is not None
        gone += match is not None and "removed from the tree" in (match.entry or "")
    return hit, gone


def newest_heads(repo: Path, keep: int = 3) -> dict[str, list[str]]:
    """cold file -> the heading lines of its `keep` newest dated units (what keep_last protects)."""
    from tiergit.core.cuts import dated_units

    out = {}
    for cold in sorted((repo / ".squad/memory/cold").glob("*.md")):
        text = cold.read_text(encoding="utf-8")
        lines = text.splitlines()
        units = sorted(dated_units(parse.parse(text, cold.name, None)), key=lambda u: (u[0], u[1]))
        out[cold.name] = [lines[u[1] - 1] for u in units[-keep:]]
    return out


def kept_newest(repo: Path, heads: dict[str, list[str]]) -> int:
    """How many cold files still hold every one of their newest heading lines."""
    n = 0
    for name, want in heads.items():
        text = (repo / ".squad/memory/cold" / name).read_text(encoding="utf-8")
        n += all(h in text.splitlines() for h in want)
    return n


def empty_folders(repo: Path) -> int:
    base = repo / ".squad/memory/archive"
    return sum(1 for d in base.rglob("*") if d.is_dir() and not any(d.iterdir())) if base.is_dir() else 0


def bench(project: Path, n: int, work: Path) -> dict:
    repo = work / project.name
    repo.mkdir()
    sh(repo, "git", "init", "-q", "-b", "main")
    shutil.copytree(project / ".squad", repo / ".squad", ignore=shutil.ignore_patterns("replay"))
    commit(repo, "legacy squad")
    tg(repo, "init", "--preset", "squad")
    # what the TG003 hint says for a project whose decisions.md is 856 KB
    cfg = repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "limits: {max_file_bytes: 4000000}\n")
    lines = sample(project, n)
    today = date.today()
    tg(repo, "import", "squad", "--apply", env={"TIERGIT_TODAY": today.isoformat()})
    commit(repo, "import")
    floor, _ = found(repo, lines)
    heads = newest_heads(repo)
    kept = {}
    for days in (200, 400):
        later = (today + timedelta(days=days)).isoformat()
        tg(repo, "archive", "--apply", env={"TIERGIT_TODAY": later})
        commit(repo, f"archive at +{days} days")
        kept[days] = kept_newest(repo, heads)
    os.environ["TIERGIT_TODAY"] = (today + timedelta(days=400)).isoformat()
    hit, gone = found(repo, lines)
    files = len([p for p in (repo / ".squad").rglob("*.md")])
    return {"project": project.name, "sampled": len(lines), "floor": floor, "found": hit, "from_history": gone,
            "files": files, "agents": len(heads), "kept200": kept[200], "kept400": kept[400],
            "empty": empty_folders(repo)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    projects = sorted(p for p in CORPUS.iterdir() if (p / ".squad" / "agents").is_dir()
                      and (not a.only or a.only in p.name))
    if not projects:
        print(f"no Squad projects under {CORPUS}")
        return 2
    print(f"{'project':<34} {'sampled':>7} {'after import':>12} {'after +400d':>11} {'from git':>8} "
          f"{'newest 3 kept +200d':>19} {'+400d':>7} {'empty dirs':>10}")
    short = 0
    with tempfile.TemporaryDirectory(prefix="tiergit-retention-") as tmp:
        for project in projects:
            r = bench(project, a.sample, Path(tmp))
            pct = lambda k: 100.0 * r[k] / r["sampled"] if r["sampled"] else 100.0  # noqa: E731
            short += r["sampled"] - r["found"] + (r["agents"] - r["kept400"]) + (r["agents"] - r["kept200"])
            short += r["empty"]
            print(f"{r['project']:<34} {r['sampled']:>7} {pct('floor'):>11.0f}% {pct('found'):>10.0f}% "
                  f"{r['from_history']:>8} {str(r['kept200']) + '/' + str(r['agents']):>19} "
                  f"{str(r['kept400']) + '/' + str(r['agents']):>7} {r['empty']:>10}", flush=True)
    print("OK: 100 % still found, every agent's newest 3 sessions in cold, no empty folder" if not short
          else f"{short} shortfall(s): lines not found, agents missing newest sessions, or empty folders")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
