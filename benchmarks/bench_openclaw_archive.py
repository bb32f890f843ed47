"""OpenClaw keeps finding its notes: the real `openclaw@2026.9.6` before and after `archive --apply`.

For each corpus OpenClaw workspace (or --only NAME): `openclaw setup --baseline` into a fresh
folder, the workspace's own files copied over it, committed; `tiergit init --preset openclaw`,
`import openclaw --apply`, commit. N = the workspace's newest daily note's date. Then
`openclaw memory index` (files indexed) and five `openclaw memory search` queries (four words
of a line from five seeded notes that the first archive run moves), at:
  before   - as imported;
  +45 d    - after `archive --apply` with TIERGIT_TODAY = N+45 (notes older than N+15 move to
             memory/archive/YYYY-MM/, still under OpenClaw's memory/**), committed;
  +120 d   - after `archive --apply` at N+120 (75 days after the move: nothing of it is due);
  +140 d   - after `archive --apply` at N+140 (95 days after the move: those notes leave the tree).
Printed: files indexed, the searches whose hits (by note name) equal the first run's, files
deleted from the tree, and whether every deleted file is one tiergit recorded moving more
than 90 days earlier (the owner's own memory/archive/ files never go). Needs the frameworks
cache of tests/frameworks.py (it installs it). Slow: OpenClaw indexes for about a minute.

Usage: python benchmarks/bench_openclaw_archive.py [--only NAME]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", ROOT.parent / "shared" / "corpus"))
NOTE = re.compile(r"^(\d{4}-\d{2}-\d{2})[^/]*\.md$")


def run(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})},
                          stdin=subprocess.DEVNULL)


def tg(ws: Path, *args: str, day: date | None = None) -> subprocess.CompletedProcess:
    return run(ws, sys.executable, "-m", "tiergit", *args, env={"TIERGIT_TODAY": day.isoformat()} if day else None)


def commit(ws: Path, msg: str) -> None:
    run(ws, "git", "add", "-A")
    run(ws, "git", "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", msg)


def queries(ws: Path, cutoff: date, n: int = 5) -> list[str]:
    notes = sorted(p for p in (ws / "memory").glob("*.md") if NOTE.match(p.name)
                   and date.fromisoformat(NOTE.match(p.name)[1]) < cutoff)
    random.Random(ws.name).shuffle(notes)
    out = []
    for note in notes:
        words = [ln.split() for ln in note.read_text(encoding="utf-8", errors="replace").splitlines()]
        lines = [w for w in words if len(w) >= 6 and not w[0].startswith(("#", "```", "|"))]
        if lines:
            pick = random.Random(note.name).choice(lines)
            out.append(" ".join(pick[1:5] if pick[0] in ("-", "*") else pick[:4]))
        if len(out) == n:
            break
    return out


def state(claw, ws: Path, env: dict, qs: list[str]) -> tuple[int, list[set[str]]]:
    index = claw.run(ws, "memory", "index", timeout=900, **env)
    m = re.search(r"(\d+) files indexed", index.stdout + index.stderr)
    hits = []
    for q in qs:
        out = claw.run(ws, "memory", "search", q, "--json", "--max-results", "5", timeout=600, **env).stdout
        hits.append({Path(p).name for p in re.findall(r'"path"\s*:\s*"([^"]+)"', out)})
    return (int(m[1]) if m else -1), hits


def bench(claw, project: Path, work: Path) -> list[str]:
    ws, st = work / project.name, work / (project.name + ".state")
    env = {"OPENCLAW_STATE_DIR": str(st), "NO_COLOR": "1"}
    claw.run(work, "setup", "--baseline", "--workspace", str(ws), timeout=600, **env)
    for item in project.iterdir():
        if item.name not in ("replay", "SOURCE", "LICENSE"):
            (shutil.copytree(item, ws / item.name, dirs_exist_ok=True) if item.is_dir()
             else shutil.copy2(item, ws / item.name))
    run(ws, "git", "init", "-q", "-b", "main")
    commit(ws, "workspace")
    tg(ws, "init", "--preset", "openclaw", "--no-install")
    tg(ws, "import", "openclaw", "--apply")
    commit(ws, "import")
    days = sorted(date.fromisoformat(NOTE.match(p.name)[1]) for p in (ws / "memory").glob("*.md") if NOTE.match(p.name))
    newest = days[-1]
    qs = queries(ws, newest + timedelta(days=15))
    tracked = lambda: set(run(ws, "git", "ls-files").stdout.split())  # noqa: E731
    files0, hits0 = state(claw, ws, env, qs)
    rows = [f"{project.name}: {len(days)} daily notes, newest {newest}; queries: {qs}",
            f"  {'state':<8} {'indexed':>7} {'same hits':>9} {'deleted':>7}  only tiergit's, moved > 90 d before"]
    rows.append(f"  {'before':<8} {files0:>7} {len(qs):>7}/{len(qs)} {0:>7}")
    moved_on: dict[str, date] = {}
    for label, offset in (("+45 d", 45), ("+120 d", 120), ("+140 d", 140)):
        day = newest + timedelta(days=offset)
        before = tracked()
        tg(ws, "archive", "--apply", day=day)
        commit(ws, f"archive {label}")
        after = tracked()
        rec = ws / ".tiergit/logs/archived.jsonl"
        for line in rec.read_text().splitlines() if rec.is_file() else []:
            ev = json.loads(line)
            moved_on.setdefault(ev["path"], date.fromisoformat(ev["day"]))
        deleted = sorted(p for p in before - after if p.startswith("memory/archive/"))
        fair = all(p in moved_on and (day - moved_on[p]).days > 90 for p in deleted)
        files, hits = state(claw, ws, env, qs)
        same = sum(a == b for a, b in zip(hits0, hits))
        rows.append(f"  {label:<8} {files:>7} {same:>7}/{len(qs)} {len(deleted):>7}  {'yes' if fair else 'NO'}")
    return rows


def main() -> int:
    import frameworks

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    claw = frameworks.install(frameworks.OPENCLAW)
    projects = sorted(p for p in CORPUS.glob("openclaw_*") if (p / "MEMORY.md").is_file() and a.only in p.name)
    with tempfile.TemporaryDirectory(prefix="tiergit-openclaw-") as tmp:
        for project in projects:
            for row in bench(claw, project, Path(tmp)):
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
