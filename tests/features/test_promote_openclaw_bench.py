"""The OpenClaw real-use benchmark's fixed parts (benchmarks/bench_promote_openclaw.py): how a later note
becomes a search query (decided before any run, blind to the gate), and its labels, stored by reference,
still naming the corpus lines they were given for."""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import labelled
import pytest
from conftest import CORPUS

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_promote_openclaw.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_promote_openclaw", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_notes_headings_are_its_queries_without_layout_headings_or_numbers(tmp_path):
    bench = _bench()
    note = tmp_path / "2026-04-22.md"
    note.write_text("# 2026-04-22\n\n## Conversation Summary\n\n## 1. Confirm PVC Binding at 14:05\n\n"
                    "## Session Key agent:main thread 4823497\n\n- text\n")
    earlier = {h.lower() for h in ("Conversation Summary", "Session Key agent main thread")}
    assert bench.queries_of([note], earlier) == ["Confirm PVC Binding at"]
    plain = tmp_path / "2026-04-23.md"
    plain.write_text("- Moved the **backup job** to 03:00 on the NAS; it runs nightly now.\n")
    assert bench.queries_of([plain], set()) == ["Moved the backup job to on the NAS it runs nightly now"]


def test_days_are_taken_evenly_first_and_last_kept():
    bench = _bench()
    assert bench._evenly(list(range(10)), 4) == [0, 3, 6, 9]
    assert bench._evenly([1, 2], 6) == [1, 2]


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["promote_openclaw.tsv", "promote_stop50.tsv"])
def test_the_openclaw_labels_name_their_corpus_lines(name):
    rows = labelled.rows(name)
    assert rows and all(r[6] in ("good", "bad") for r in rows)
    for path, line, sha, *rest in rows:
        text = (CORPUS / path).read_text(encoding="utf-8", errors="replace").splitlines()[int(line) - 1]
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() == sha, (path, line)
        assert rest[2] == ("held-out" if int(sha[:8], 16) % 3 == 0 else "tuned")
