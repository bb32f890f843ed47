"""Credential detection on labelled data: recall on the labelled credentials (tests/labels/
credentials.tsv, written by the team in agent-style lines), false positives on the labelled
benign corpus lines and on every corpus file, and scan speed; detect-secrets side by side when
it is installed (it is only imported here, guarded).

Prints per-kind misses, recall, false positives, the time to import and scan, and beside them
the floor of the same run: reading the corpus without scanning it.

Usage: python benchmarks/bench_secrets.py [--corpus PATH]
"""
from __future__ import annotations

import argparse
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


def detect_secrets_scanner():
    """A batch scanner with detect-secrets' default plugins and filters (as `detect-secrets scan`
    runs them on a file), or None when it is not installed."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def scan(lines: list[str]) -> list[bool]:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "notes.md"
            path.write_text("\n".join(line.replace("\n", " ") for line in lines) + "\n", encoding="utf-8")
            found = SecretsCollection()
            with default_settings():
                found.scan_file(str(path))
            hit = {s.line_number for s in found[str(path)]}
        return [n in hit for n in range(1, len(lines) + 1)]
    return scan


def import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT)
    return float(out.stdout.strip() or "nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(PROJECT.parent.parent / "shared" / "corpus"))
    args = ap.parse_args()
    corpus = Path(args.corpus)
    creds = labelled.credentials()
    other = detect_secrets_scanner()
    ours = [bool(secrets.scan(line)) for _, line in creds]
    theirs = other([line for _, line in creds]) if other else None
    print(f"labelled credentials: {len(creds)} lines, {len({k for k, _ in creds})} kinds")
    print(f"  tiergit         recall {sum(ours) / len(creds):.3f} ({sum(ours)}/{len(creds)})")
    if theirs is not None:
        print(f"  detect-secrets  recall {sum(theirs) / len(creds):.3f} ({sum(theirs)}/{len(creds)})")
        either = sum(a or b for a, b in zip(ours, theirs))
        print(f"  either          recall {either / len(creds):.3f}")
    else:
        print("  detect-secrets  not installed (pip install detect-secrets to compare)")
    for n, (kind, line) in enumerate(creds):
        if not ours[n]:
            print(f"  MISSED by tiergit [{kind}] {line[:90]}")
        if theirs is not None and not theirs[n]:
            print(f"  missed by detect-secrets [{kind}]")
    if not corpus.is_dir():
        print(f"no corpus at {corpus}: benign lines skipped")
        return
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
    hits = sum(len(secrets.scan(t)) for t in texts)
    took = time.perf_counter() - t0
    size = sum(len(t) for t in texts) / 1e6
    real = len(labelled.rows("corpus_credentials.tsv"))
    print(f"whole corpus: {len(files)} files, {size:.1f} M chars; scan {took:.2f} s "
          f"({size / took:.1f} M chars/s), floor (read only) {floor:.2f} s; "
          f"{hits} hits = {real} labelled real credentials")
    print(f"import: tiergit.core.secrets {import_seconds('tiergit.core.secrets') * 1000:.0f} ms, "
          f"detect_secrets.core.scan {import_seconds('detect_secrets.core.scan') * 1000:.0f} ms, "
          f"floor (import re) {import_seconds('re') * 1000:.1f} ms")
    print("hook time on a 1,000-file store: python benchmarks/bench_hook.py --runs 3")


if __name__ == "__main__":
    main()
