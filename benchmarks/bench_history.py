"""`tiergit history` over a repository with 1,000 commits touching the store.

Run: .venv/bin/python benchmarks/bench_history.py [--commits 1000] [--runs 5]

The repository is built with `git fast-import` (seconds, not minutes): a squad store with
5 agents; each commit is one session of one agent (notes appended to hot, or hot compacted
into a new cold entry, with the cold file trimmed at its budget as `archive` would), every
10th commit also grows the agent's legacy history.md, every 50th adds a wiki topic, and
after every 7th comes an extra commit that touches no memory file (the walk skips it).
Prints the median wall time of the real CLI (`tiergit history` and `--json`, each a fresh
process, as a user runs it) against the 5 s target, and whether every run's output was
byte-identical.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AGENTS = ("picard", "riker", "data", "troi", "worf")
WORDS = ("token cache expiry retry budget merge driver hook index blob session wiki review recall "
         "pattern lesson fix root cause deploy rollback config schema parser window prompt").split()


def sentence(n: int) -> str:
    return " ".join(WORDS[(n * 7 + k * 3) % len(WORDS)] for k in range(8 + n % 9))


def build_stream(commits: int) -> bytes:
    """A fast-import stream; contents are a pure function of the commit number."""
    out: list[bytes] = []
    files: dict[str, str] = {}

    def put(path: str, text: str) -> None:
        files[path] = text
        data = text.encode()
        out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))

    stamp = 1767225600  # 2026-01-01T00:00:00Z
    mark = 0

    def begin(when: int, msg: bytes) -> None:
        nonlocal mark
        mark += 1
        out.append(b"commit refs/heads/main\nmark :%d\n" % mark)
        out.append(b"author Bench <bench@example.com> %d +0000\n" % when)
        out.append(b"committer Bench <bench@example.com> %d +0000\n" % when)
        out.append(b"data %d\n%s\n" % (len(msg), msg))
        if mark > 1:
            out.append(b"from :%d\n" % (mark - 1))

    for n in range(1, commits + 1):
        when = stamp + n * 3600
        agent = AGENTS[n % len(AGENTS)]
        day = time.strftime("%Y-%m-%d", time.gmtime(when))
        begin(when, f"session {n} ({agent})".encode())
        if n == 1:
            put(".tiergit.yml", "version: 1\npreset: squad\n")
        hot = f".squad/memory/hot/{agent}.md"
        cold = f".squad/memory/cold/{agent}.md"
        if (n // len(AGENTS)) % 3 != 2:
            body = files.get(hot, f"# {agent}: hot\n\n## Current task\n- session {n}\n\n## Notes\n")
            put(hot, body + f"- {day}: {sentence(n)}\n")
        else:
            entry = f"\n### Session {n} ({day})\n- **Pattern:** {sentence(n)}\n- **Fix:** {sentence(n + 1)}\n"
            text = files.get(cold, f"# {agent}: cold\n") + entry
            while len(text) > 12000 and text.count("\n### ") > 1:  # trimmed at the budget, oldest first
                first = text.index("\n### ")
                text = text[:first] + text[text.index("\n### ", first + 1):]
            put(cold, text)
            put(hot, f"# {agent}: hot\n\n## Current task\n- (next session)\n")
        if n % 10 == 0:
            legacy = f".squad/agents/{agent}/history.md"
            put(legacy, files.get(legacy, f"# {agent}\n\n## Learnings\n") + f"- {day}: {sentence(n)}\n")
        if n % 50 == 0:
            put(f".squad/memory/wiki/topic-{n // 50}.md", f"# topic {n // 50}\n\n- [rule] {sentence(n)}\n")
        if n % 7 == 0:  # a commit that touches no memory: the walk must skip it
            begin(when + 60, f"code change {n}".encode())
            put("src/app.py", f"VERSION = {n}\n")
    out.append(b"done\n")
    return b"".join(out)


def make_repo(path: Path, commits: int) -> float:
    t0 = time.perf_counter()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    subprocess.run(["git", "fast-import", "--quiet", "--done"], cwd=path, input=build_stream(commits), check=True)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=path, check=True)
    return time.perf_counter() - t0


def timed(repo: Path, args: list[str]) -> tuple[float, bytes]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(proc.stderr.decode())
    return elapsed, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        os.environ["TIERGIT"] = "0"
        built = make_repo(repo, args.commits)
        total = int(subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True,
                                   text=True, check=True).stdout)
        print(f"repo: {total} commits, {args.commits} of them touching the store "
              f"(built with git fast-import in {built:.2f} s)")
        for label, cli in (("history", ["history"]), ("history --json", ["history", "--json"])):
            times, digests = [], set()
            for _ in range(args.runs):
                elapsed, out = timed(repo, cli)
                times.append(elapsed)
                digests.add(hashlib.sha256(out).hexdigest())
            extra = ""
            if cli[-1] == "--json":
                import json
                extra = f", {len(json.loads(out)['commits'])} commits in the output, {len(out) / 1e6:.1f} MB"
            print(f"tiergit {label:<15} median {statistics.median(times):.2f} s over {args.runs} runs "
                  f"(min {min(times):.2f}, max {max(times):.2f}; target < 5 s){extra}")
            print(f"  output identical across {args.runs} runs: {'yes' if len(digests) == 1 else 'NO'}"
                  f" (sha256 {sorted(digests)[0][:16]})")
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tiergit.features import history
        from tiergit.shell.store import Store

        store, times = Store.open(repo), []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            history.file_sparks(store)
            times.append(time.perf_counter() - t0)
        print(f"status sparklines (history.file_sparks, in-process) median {statistics.median(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
