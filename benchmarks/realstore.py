"""Build a realistic squad store for the benchmarks: N memory files cut from real corpus entries,
with deep git history, written in one `git fast-import` stream (seconds, even at 50k files).

Files: 20 % hot/<agent>.md, 60 % cold/<agent>.md, 20 % wiki/<topic>.md, each filled with
whole `### Title (date)` entries taken from the Squad corpus's agent histories (read at run
time, never copied into the project) until it sits near its budget, as real files do: hot
3-4 KB (budget 4 KB), cold and wiki 9-12 KB (cold budget 12 KB). A third of the entries lose
their date so that promotion has to date their items from git history. History: `depth`
commits, each appending one entry to a rotating window of `touch` cold files (the oldest
entry leaves once the file is over 12 KB, as `archive` would take it), so a cold file carries
up to `depth` commits while the total number of blobs stays bounded.

    python benchmarks/realstore.py /tmp/store --files 10000 --depth 300
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve()
# The project sits beside shared/ (or, as a worktree, one level deeper).
CORPUS = Path(os.environ.get("TIERGIT_CORPUS") or next(
    (p / "shared" / "corpus" for p in _HERE.parents[1:4] if (p / "shared" / "corpus").is_dir()),
    _HERE.parents[2] / "shared" / "corpus"))
ENTRY_RE = re.compile(r"^### .*?(?=^### |\Z)", re.M | re.S)
DATE_RE = re.compile(r"\s*\(?\d{4}-\d{2}-\d{2}\)?")
# (fill to at least, never above) bytes per tier; an entry is never cut
SIZE = {"hot": (3000, 4000), "cold": (9000, 12000), "wiki": (9000, 12000)}
CONFIG = "version: 1\npreset: squad\n"


def corpus_entries(limit_bytes: int = 3000) -> list[str]:
    """Whole `### ...` entries (80 to `limit_bytes` bytes) from every Squad agent history in the
    corpus: nine in ten corpus entries fit; the few larger ones would not fit a hot file."""
    found = []
    for path in sorted(CORPUS.glob("*/.squad/agents/*/history.md")):
        text = path.read_text("utf-8", "replace").replace("\r\n", "\n")
        for m in ENTRY_RE.finditer(text):
            entry = m.group(0).strip()
            if 80 < len(entry.encode()) <= limit_bytes:
                found.append(entry)
    if not found:
        sys.exit(f"realstore: no Squad histories under {CORPUS}; set TIERGIT_CORPUS to the shared corpus")
    return found


_WORDS: dict[int, list[str]] = {}


def _words(entries: list[str]) -> list[str]:
    if id(entries) not in _WORDS:
        _WORDS[id(entries)] = sorted({m[0] for e in entries for m in WORD_RE.finditer(e)})
    return _WORDS[id(entries)]


def file_paths(n: int) -> list[str]:
    out = []
    for i in range(n):
        r = i % 10
        if r < 2:
            out.append(f".squad/memory/hot/agent{i:05d}.md")
        elif r < 8:
            out.append(f".squad/memory/cold/agent{i:05d}.md")
        else:
            out.append(f".squad/memory/wiki/topic{i:05d}.md")
    return out


def tier(path: str) -> str:
    return path.split("/")[2]


# A plain lowercase word (not a label's `lesson:**`, not a `[kind]`): what `_vary` swaps.
WORD_RE = re.compile(r"(?<![\w*\[`/.-])[a-z]{4,}(?![\w*:\]`/.-])")


def _vary(rng: random.Random, entry: str, words: list[str]) -> str:
    """The entry with one plain word per line swapped for another corpus word: the corpus holds
    ~950 entries and a store needs thousands, and real files do not repeat each other's text
    (a copy would let any per-text memo answer from memory where a real store makes it work)."""
    out = []
    for line in entry.split("\n"):
        found = list(WORD_RE.finditer(line)) if not line.startswith("#") else []
        if found:
            m = rng.choice(found)
            line = line[:m.start()] + rng.choice(words) + line[m.end():]
        out.append(line)
    return "\n".join(out)


def _entry(rng: random.Random, entries: list[str], undated: bool) -> str:
    e = _vary(rng, rng.choice(entries), _words(entries))
    if undated:
        head, _, body = e.partition("\n")
        e = DATE_RE.sub("", head) + "\n" + body
    return e + "\n\n"


def build(repo: Path, files: int, depth: int = 0, touch: int = 20, seed: int = 7) -> dict:
    """Create `repo` (must not exist). Returns {files, commits, bytes, seconds}."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    entries = corpus_entries()
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    for k, v in (("user.name", "bench"), ("user.email", "bench@example.com")):
        subprocess.run(["git", "-C", str(repo), "config", k, v], check=True)
    paths = file_paths(files)
    cold = [p for p in paths if "/cold/" in p]
    head = {p: f"# {Path(p).stem}\n\n## Learnings\n\n" for p in paths}
    kept: dict[str, list[str]] = {p: [] for p in paths}

    def size(p: str) -> int:
        return len(body(p).encode())

    def add(p: str) -> None:
        # Like a real cold file: new entries at the end, the oldest archived once it is full.
        kept[p].append(_entry(rng, entries, undated=rng.random() < 0.33))
        while len(kept[p]) > 1 and size(p) > SIZE[tier(p)][1]:
            kept[p].pop(0)

    def body(p: str) -> str:
        return head[p] + "".join(kept[p])
    proc = subprocess.Popen(["git", "fast-import", "--quiet", "--done"], cwd=repo, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    w = proc.stdin.write
    when = 1_767_225_600  # 2026-01-01

    def commit(changed: list[str], mark_msg: str, first: bool) -> None:
        msg = mark_msg.encode()
        w(f"commit refs/heads/main\ncommitter bench <bench@example.com> {when} +0000\n".encode())
        w(f"data {len(msg)}\n".encode() + msg + b"\n")
        for p in changed:
            data = body(p).encode()
            w(f"M 100644 inline {p}\ndata {len(data)}\n".encode() + data + b"\n")
        if first:
            cfg = CONFIG.encode()
            w(f"M 100644 inline .tiergit.yml\ndata {len(cfg)}\n".encode() + cfg + b"\n")
        w(b"\n")

    # The first commit holds every file with a couple of entries; later commits grow cold files.
    for p in paths:
        for _ in range(60):   # near budget: at least the tier's floor, never above its cap
            if size(p) >= SIZE[tier(p)][0]:
                break
            add(p)
    commit(paths, "initial store", first=True)
    window = cold[:max(touch, 1)] if cold else []
    for c in range(depth):
        when += 3600 * 6
        start = (c * touch) % max(len(cold), 1)
        changed = [cold[(start + j) % len(cold)] for j in range(min(touch, len(cold)))] if cold else []
        # Half of each commit hits the same window: those files get `depth` commits of history.
        changed = sorted(set(changed[: touch // 2] + window[: touch - touch // 2]))
        for p in changed:
            add(p)
        commit(changed, f"session {c}", first=False)
    w(b"done\n")
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("realstore: git fast-import failed")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-f", "main"], check=True)
    total = sum(size(p) for p in paths)
    return {"files": files, "commits": depth + 1, "bytes": total, "seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("repo", type=Path)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--depth", type=int, default=300)
    ap.add_argument("--touch", type=int, default=20)
    args = ap.parse_args()
    info = build(args.repo, args.files, args.depth, args.touch)
    print(f"built {info['files']} files, {info['commits']} commits, {info['bytes'] / 1e6:.1f} MB "
          f"in {info['seconds']:.1f} s at {args.repo}")


if __name__ == "__main__":
    main()
