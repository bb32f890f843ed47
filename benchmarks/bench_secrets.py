"""Credential detection on labelled data, beside detect-secrets (the baseline; installed in the
benchmark's venv only, never a tiergit dependency, imported here guarded).

- recall on the labelled credentials (tests/labels/credentials.tsv: templates written the way agents
  write notes, >= 100 formats after gitleaks' default rules), on the tuned part and the held-out third
  (tests/labelled.held_out) separately;
- false positives on the benign look-alikes (tests/labels/benign_lookalikes.tsv: hashes, UUIDs, base64
  images, commit SHAs, public ids, documented example keys; >= 300), on the labelled benign corpus lines
  and on every corpus file (the hits must be the labelled real credentials, nothing new);
- speed: the whole corpus scanned beside the floor of reading it, and what the hook pays for the scan
  (import + the first scan of a 5-file commit, in a fresh process: compiles included).

Usage: python benchmarks/bench_secrets.py [--corpus PATH]
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
sys.path.insert(0, str(PROJECT / "tests"))
sys.path.insert(0, str(PROJECT))

import labelled  # noqa: E402

from tiergit.core import secrets  # noqa: E402

TARGET_RECALL = 0.98


def detect_secrets_scanner():
    """A batch scanner with detect-secrets' default plugins and filters (as `detect-secrets scan`
    runs them on a file), or None when it is not installed."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def scan(lines: list[str]) -> list[bool]:
        # One file per line: in one file, detect-secrets drops repeated and neighbouring findings
        # (it found `password=hunter2hunter2` alone and missed it among others), which is not its fault.
        with tempfile.TemporaryDirectory() as tmp:
            paths = [Path(tmp) / f"notes{n}.md" for n in range(len(lines))]
            for path, line in zip(paths, lines):
                path.write_text(line.replace("\n", " ") + "\n", encoding="utf-8")
            found = SecretsCollection()
            with default_settings():
                for path in paths:
                    found.scan_file(str(path))
            return [bool(found[str(path)]) for path in paths]
    return scan


def _recall(name: str, rows: list[tuple[str, str]], other) -> None:
    ours = [bool(secrets.scan(line)) for _, line in rows]
    kinds = len({k for k, _ in rows})
    line = f"  {name:9s} {len(rows):3d} lines, {kinds:3d} formats: tiergit recall {sum(ours) / len(rows):.3f}"
    if other:
        theirs = other([text for _, text in rows])
        line += f"   detect-secrets {sum(theirs) / len(rows):.3f}"
    print(line + f"   (target >= {TARGET_RECALL:.2f})")
    for (kind, text), hit in zip(rows, ours):
        if not hit:
            print(f"    MISSED by tiergit [{kind}] {text[:90]}")


def _lookalikes(other) -> None:
    looks = labelled.lookalikes()
    ours = [bool(secrets.scan(line)) for _, line, _ in looks]
    held = sum(h for *_, h in looks)
    line = (f"benign look-alikes: {len(looks)} lines ({held} held out), {len({c for c, *_ in looks})} categories: "
            f"tiergit false positives {sum(ours)}")
    if other:
        theirs = other([text for _, text, _ in looks])
        by_cat: dict[str, int] = {}
        for (cat, _, _), hit in zip(looks, theirs):
            by_cat[cat] = by_cat.get(cat, 0) + hit
        line += f", detect-secrets {sum(theirs)} ({', '.join(f'{c} {n}' for c, n in sorted(by_cat.items()) if n)})"
    print(line + " (target 0)")
    for (cat, text, _), hit in zip(looks, ours):
        if hit:
            print(f"    FALSE POSITIVE [{cat}] {text[:90]}")


def hook_scan_ms(files: list[Path]) -> tuple[float, float]:
    """Median and min of import + first scan of `files` in a fresh process (ms)."""
    code = ("import sys, time; t = time.perf_counter(); import tiergit.core.secrets as s; "
            "texts = [open(p, encoding='utf-8', errors='replace').read() for p in sys.argv[1:]]; "
            "n = sum(len(s.scan(x)) for x in texts); print(time.perf_counter() - t)")
    runs = [float(subprocess.run([sys.executable, "-c", code, *map(str, files)], capture_output=True, text=True,
                                 cwd=PROJECT).stdout) * 1000 for _ in range(9)]
    return statistics.median(runs), min(runs)


def _corpus(corpus: Path, other) -> None:
    benign = labelled.benign_secret_lines(corpus)
    fp = [ref for ref, text in benign if secrets.scan(text)]
    print(f"labelled benign corpus lines: {len(benign)}; tiergit false positives {len(fp)} {fp[:3]}")
    if other:
        fp_other = [ref for (ref, _), hit in zip(benign, other([t for _, t in benign])) if hit]
        print(f"  detect-secrets false positives {len(fp_other)}")
    files = [p for p in sorted(corpus.rglob("*.md")) if p.is_file()]
    t0 = time.perf_counter()
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    floor = time.perf_counter() - t0
    t0 = time.perf_counter()
    hits = {(str(p.relative_to(corpus)), h.line, h.kind) for p, t in zip(files, texts) for h in secrets.scan(t)}
    took = time.perf_counter() - t0
    size = sum(len(t) for t in texts) / 1e6
    real = {(rel, int(n), kind) for rel, n, _, kind in labelled.rows("corpus_credentials.tsv")}
    print(f"whole corpus: {len(files)} files, {size:.1f} M chars; scan {took:.2f} s ({size / took:.1f} M chars/s), "
          f"floor (read only) {floor:.2f} s; {len(hits)} hits, {len(hits - real)} not labelled real (target 0), "
          f"{len(real - hits)} labelled real missed")
    commit = [p for p in files if p.name == "history.md"][:5]
    med, low = hook_scan_ms(commit)
    kb = sum(p.stat().st_size for p in commit) // 1000
    print(f"hook's scan of a 5-file commit ({kb} KB of real histories), fresh process, import + first scan: "
          f"median {med:.0f} ms, min {low:.0f} ms")


def import_ms(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT)
    return float(out.stdout.strip() or "nan") * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    args = ap.parse_args()
    print(f"credentials and look-alikes: {labelled.second_reading('secrets')}")
    other = detect_secrets_scanner()
    parts = labelled.credential_parts()
    every = parts["tuned"] + parts["held-out"]
    print(f"labelled credentials: {len(every)} lines, {len({k for k, _ in every})} formats"
          + ("" if other else "  (detect-secrets not installed: pip install detect-secrets to compare)"))
    for name in ("tuned", "held-out"):
        _recall(name, parts[name], other)
    _lookalikes(other)
    print(f"import: tiergit.core.secrets {statistics.median(import_ms('tiergit.core.secrets') for _ in range(5)):.0f} ms"
          + (f", detect_secrets.core.scan {import_ms('detect_secrets.core.scan'):.0f} ms" if other else "")
          + f", floor (import json) {import_ms('json'):.1f} ms")
    corpus = Path(args.corpus)
    if corpus.is_dir():
        _corpus(corpus, other)
    else:
        print(f"no corpus at {corpus}: corpus lines, corpus scan and hook scan skipped")
    print("the hook as a whole on a 1,000-file store: python benchmarks/bench_hook.py --runs 9")


if __name__ == "__main__":
    main()
