"""A real `git merge` where both branches changed N memory files: merge=tiergit beside its
floors, all measured in the same run, for N = 1, 10, 100.

git starts a driver once per file, so the floors are what git and one process per file cost:

    union        merge=union, git's built-in line union (Squad's setting; no process per file)
    true         a driver that does nothing (`true`): git's cost of spawning one process per file
    merge-file   a driver running `git merge-file` on the three versions
    python -S    a driver that starts this interpreter isolated, without site, and exits (-I -S -c pass)
    tiergit      the driver `tiergit install` registers (tiergit/mergeentry.py under -I -S; the full
                 driver, `python -m tiergit merge-driver`, only for files the fast path declines)
    tiergit, fast  the same on files the fast path settles (the others left out of the cycle)
    tiergit, slow  the same on files the fast path declines (the entry merge runs for every file)
    full         `python -m tiergit merge-driver` with the fast path off (TIERGIT_MERGE_FAST=0): the
                 driver as it was before the fast path, and what a declined file costs

Files are real corpus histories (cycled); each branch appends its own dated entry to every file.
Prints the median wall and CPU time (git plus drivers, user + sys) and tiergit's CPU ratio to
union and to the `python -S` floor.

    python benchmarks/bench_merge_files.py [--counts 1 10 100] [--runs 3] [--installed]

--installed measures the tiergit this interpreter has installed (run it with a non-editable
install's python, from outside the checkout) instead of this checkout: an editable install
makes the driver load `site` to find its packages, which a user's install never needs.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if "--installed" not in sys.argv:
    sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from realstore import CORPUS  # noqa: E402

from tiergit.features import install  # noqa: E402

# As installed: bytecode reused between driver processes (see bench_scale.py).
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "tiergit-bench-pycache"), "TIERGIT": "0",
       "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=ENV)


DRIVERS = {   # name -> (merge attribute, driver command or None for a built-in, extra environment)
    "union": ("union", None, {}),
    "true": ("noop", "true", {}),
    "merge-file": ("mergefile", "git merge-file -L ours -L base -L theirs %A %O %B", {}),
    "python -S": ("pyfloor", f"{install.sh_quote(sys.executable)} -I -S -c pass", {}),
    "tiergit": ("tiergit", install.driver_command(), {}),
    "tiergit, fast": ("tiergit", install.driver_command(), {}),   # only files the fast path settles
    "tiergit, slow": ("tiergit", install.driver_command(), {}),   # only files it declines
    "full": ("tiergit", f"{install.sh_quote(sys.executable)} -m tiergit merge-driver %O %A %B %P",
             {"TIERGIT_MERGE_FAST": "0"}),   # the driver before the fast path
}


def build(repo: Path, driver: str, n: int, sources: list[Path]) -> None:
    attr, command, _ = DRIVERS[driver]
    git(repo, "init", "-q", "-b", "main")
    if command is not None:
        git(repo, "config", f"merge.{attr}.driver", command)
    (repo / ".gitattributes").write_text(f"*.md merge={attr}\n")
    names = [f"a{i:03d}.md" for i in range(n)]
    for i, name in enumerate(names):
        (repo / name).write_text(sources[i % len(sources)].read_text("utf-8", "replace"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for branch, day in (("b", "2026-06-02"), ("main", "2026-06-01")):
        git(repo, "checkout", "-q", *(["-b"] if branch == "b" else []), branch)
        for name in names:
            with open(repo / name, "a") as fh:
                fh.write(f"\n### {day}: {branch} session\n\n- [fact] {branch} learned a thing\n")
        git(repo, "commit", "-q", "-am", branch)


def merge_once(driver: str, n: int, sources: list[Path]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        build(repo, driver, n, sources)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(["git", "merge", "--no-edit", "-q", "b"], cwd=repo, capture_output=True,
                              env={**ENV, **DRIVERS[driver][2]})
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode not in (0, 1):   # 1: a file kept conflict markers (still a full merge)
            raise SystemExit(f"merge={driver} N={n} failed:\n{proc.stdout.decode()}{proc.stderr.decode()}")
        return wall, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def _settled(source: Path) -> bool:
    from tiergit.core import appendmerge

    text = source.read_text("utf-8", "replace")
    ours, theirs = (text + f"\n### {day}: {b} session\n\n- [fact] {b} learned a thing\n"
                    for b, day in (("main", "2026-06-01"), ("b", "2026-06-02")))
    return appendmerge.merge(text, ours, theirs) is not None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--counts", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--installed", action="store_true", help="the installed tiergit, not this checkout")
    args = ap.parse_args()
    sources = sorted(CORPUS.glob("*/.squad/agents/*/history.md"))
    if not sources:
        raise SystemExit(f"bench_merge_files: no corpus at {CORPUS}")
    settled = sum(_settled(sources[i % len(sources)]) for i in range(max(args.counts)))
    fast = [s for s in sources if _settled(s)]
    slow = [s for s in sources if s not in fast]
    print(f"the fast path settles {settled} of the {max(args.counts)} files of the largest merge (the rest: "
          f"fences or HTML; CRLF; a repeated heading; both sides growing a last section that does not end "
          f"with a list item)")
    merge_once("tiergit", 1, sources)   # compiles the bytecode once, as an install does
    merge_once("full", 1, sources)
    names = list(DRIVERS)
    print(f"{'N':>4}  " + "  ".join(f"{d:>16}" for d in names) + "   tiergit/union  tiergit/python -S"
          "  fast/union  fast/python -S  slow a file")
    print(f"{'':>4}  " + "  ".join(f"{'cpu s (wall s)':>16}" for _ in names))
    for n in args.counts:
        cycle = {"tiergit, fast": fast, "tiergit, slow": slow}
        got = {d: [merge_once(d, n, cycle.get(d, sources)) for _ in range(args.runs)] for d in names}
        med = {d: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for d, v in got.items()}
        cells = "  ".join(f"{med[d][1]:>7.3f} ({med[d][0]:>6.3f})" for d in names)
        print(f"{n:>4}  {cells}   {med['tiergit'][1] / max(med['union'][1], 1e-3):>12.1f}x"
              f"  {med['tiergit'][1] / max(med['python -S'][1], 1e-3):>17.2f}x"
              f"  {med['tiergit, fast'][1] / max(med['union'][1], 1e-3):>9.1f}x"
              f"  {med['tiergit, fast'][1] / max(med['python -S'][1], 1e-3):>13.2f}x"
              f"  {med['tiergit, slow'][1] / n:>10.3f}", flush=True)


if __name__ == "__main__":
    main()
