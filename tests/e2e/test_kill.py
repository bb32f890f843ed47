"""Kill harness in CI: each mutating command SIGKILLed at random moments, rerun, and
compared with an uninterrupted run (benchmarks/bench_kill.py does 200+ per command)."""
from __future__ import annotations

import json
import random

import killharness as kh
import pytest

pytestmark = pytest.mark.e2e

KILLS = 3


@pytest.mark.parametrize("name", kh.COMMANDS)
def test_kill_then_rerun_matches_an_uninterrupted_run(name, tmp_path):
    template, args = kh.build(name, tmp_path / "template")
    ref, took = kh.reference(template, args, tmp_path)
    rng = random.Random(name)
    for i in range(KILLS):
        # spread the kills over the whole run, the first one early (before any write)
        out = kh.kill_once(template, args, ref, took * (i + rng.random()) / KILLS, tmp_path)
        assert not out.errors, out.errors
        assert not out.lost, f"{name}: lost {out.lost[:3]}"
        assert out.same, f"{name}: differs from an uninterrupted run"


def test_rerun_completes_a_write_a_kill_left_half_done(squad_repo):
    """The state a kill between two renames leaves: the journal written, the archive month
    written, cold not yet rewritten. The next mutating command rolls it forward first."""
    from tiergit.features.plan import Change
    from tiergit.shell import journal

    cold = squad_repo / ".squad" / "memory" / "cold" / "picard.md"
    cold.parent.mkdir(parents=True, exist_ok=True)
    cold.write_text("# picard\n\n### 2025-01-01: Old\n\n- [rule] Keep old entries findable.\n")
    month = ".squad/memory/archive/2025-01/cold/picard.md"
    changes = [Change(month, "# Archive\n\n- [rule] Keep old entries findable.\n", None),
               Change(".squad/memory/cold/picard.md", "# picard\n", cold.read_text())]
    entries = [{"path": c.path, "new": c.new, "old_sha": journal._sha(journal._norm(c.old)),
                "new_sha": journal._sha(c.new), "mode": None} for c in changes]
    jpath = journal.journal_path(squad_repo)
    jpath.parent.mkdir(parents=True, exist_ok=True)
    jpath.write_text(json.dumps({"title": "tiergit archive", "changes": entries}))
    (squad_repo / month).parent.mkdir(parents=True)
    (squad_repo / month).write_text(changes[0].new)   # first rename done, then the kill

    proc = kh.run(squad_repo, "archive")   # a preview takes no lock: nothing happens yet
    assert jpath.exists() and "Keep old" in cold.read_text()
    proc = kh.run(squad_repo, "archive", "--apply")
    assert proc.returncode == 0, proc.stderr
    assert "completed an interrupted `tiergit archive`: 1 file(s) written" in proc.stderr
    assert cold.read_text() == "# picard\n" and not jpath.exists()
    assert "Keep old entries findable" in (squad_repo / month).read_text()
