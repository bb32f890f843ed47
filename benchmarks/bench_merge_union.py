"""Issue 25's team merge, through real `git merge`s: two branches each append one dated entry to
the same N real memory files (corpus histories, MEMORY.md files and daily notes, cycled), the way
agents write them (at the file's entry level, after a blank line or tight, or a `---` and a team
update). Counts, for merge=union (the baseline) and merge=tiergit (the driver `tiergit install`
registers): files git stops on with CONFLICT, and appended lines lost or duplicated.

    python benchmarks/bench_merge_union.py [--files 100] [--seed 25] [--driver 'CMD %O %A %B %P']

`--driver` measures another driver command in the tiergit column (e.g. an older checkout's).
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", ROOT.parent / "shared" / "corpus"))

from tiergit.features import install  # noqa: E402

SHAPES = (
    "\n{h} {date}: {who} session\n\n- [fact] {who} learned something\n",
    "{h} {date}: {who} session\n\n- [fact] {who} learned something\n",
    "\n---\n\nTeam update ({date}): {who} shipped something.\n",
    "\n{h} {date} — {who} work\n\n**Context:** {who} did work.\n\n**Fix:** {who} fixed it.\n",
)


def git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)


def sources(n: int, rng: random.Random) -> list[Path]:
    files = sorted(CORPUS.glob("*/.squad/agents/*/history.md")) + sorted(CORPUS.glob("openclaw_*/MEMORY.md"))
    files += sorted(CORPUS.glob("openclaw_*/memory/2026-*.md"))
    files = [f for f in files if f.stat().st_size <= 60_000]
    return [rng.choice(files) for _ in range(n)]


def append(text: str, who: str, day: int, shape: str) -> str:
    level = max((len(ln) - len(ln.lstrip("#")) for ln in text.splitlines() if ln.startswith("#") and "2026-" in ln),
                default=2)
    sep = "" if text.endswith("\n") else "\n"
    return text + sep + shape.format(h="#" * min(level, 3), date=f"2026-09-{day:02d}", who=who)


def run(driver: str, files: list[Path], rng: random.Random) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "core.autocrlf", "false")
        git(repo, "config", "merge.tiergit.driver", driver)
        (repo / ".gitattributes").write_text("*.md merge=" + ("union" if driver == "union" else "tiergit") + "\n")
        names = [f"m{n:03d}.md" for n in range(len(files))]
        for name, src in zip(names, files):
            (repo / name).write_bytes(src.read_bytes())
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "base")
        added: dict[str, list[str]] = {}
        for branch, who, day in (("a", "ours", 1), ("b", "theirs", 2)):
            git(repo, "checkout", "-q", "-b", branch, "main")
            for name in names:
                text = (repo / name).read_bytes().decode("utf-8")
                shape = SHAPES[rng.randrange(len(SHAPES))]
                (repo / name).write_bytes(append(text, who, day, shape).encode("utf-8"))
                added.setdefault(name, []).append(shape)
            git(repo, "commit", "-qam", branch)
        git(repo, "checkout", "-q", "a")
        done = git(repo, "merge", "--no-edit", "b")
        out = {"files": len(names), "conflicted": done.stdout.count("CONFLICT"), "lost": 0, "duplicated": 0}
        for name in names:
            merged = (repo / name).read_bytes().decode("utf-8", "replace")
            for who in ("ours", "theirs"):
                marks = (f"{who} session", f"{who} shipped", f"{who} work", f"{who} learned", f"{who} fixed")
                n = max(sum(1 for ln in merged.splitlines() if m in ln) for m in marks)
                out["lost"] += n == 0
                out["duplicated"] += max(0, n - 1)
        return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--driver", default=install.driver_command())
    args = ap.parse_args()
    files = sources(args.files, random.Random(args.seed))
    print(f"{args.files} real memory files, each branch appends one entry to every one (seed {args.seed})")
    print(f"{'merge':10} {'conflicted files':>17} {'entries lost':>13} {'duplicated':>11}")
    for label, driver in (("union", "union"), ("tiergit", args.driver)):
        r = run(driver, files, random.Random(args.seed))
        print(f"{label:10} {r['conflicted']:>17} {r['lost']:>13} {r['duplicated']:>11}")


if __name__ == "__main__":
    main()
