"""compact.command: a real program summarizes; tiergit re-adds whatever must survive, and falls
back to the deterministic path when the program fails or hangs."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from conftest import tiergit, write
from session_helpers import squad_store  # noqa: F401

from tiergit.core import hotfile, parse
from tiergit.features import session
from tiergit.shell import config

FIXTURES = Path(__file__).parents[1] / "fixtures" / "summarizers"
HOT = ".squad/memory/hot/picard.md"
COLD = ".squad/memory/cold/picard.md"
NOTES = """
## Notes
- [correction] The owner says: the budget is in tokens, not bytes.
- [decision] Summaries go through compact.command when it is set.
- **Fix:** close stdin before waiting on the summarizer.
- Looked at how the summarizer is called and what it prints on stdout.
- Read the subprocess docs about timeouts and process groups.
"""
MUST = ["- [correction] The owner says: the budget is in tokens, not bytes.",
        "- [decision] Summaries go through compact.command when it is set.",
        "- **Fix:** close stdin before waiting on the summarizer."]


def configure(repo: Path, script: str, timeout: float = 20) -> None:
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(FIXTURES / script))}"
    cfg = repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + f"compact:\n  command: {json.dumps(command)}\n  timeout: {timeout}\n")


def run_session(repo: Path) -> dict:
    session.start(config.load(repo), "picard", "Summarizer work")
    hot = repo / HOT
    hot.write_text(hot.read_text() + NOTES)
    proc = tiergit(repo, "session", "end", "--agent", "picard", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_summarizer_that_drops_a_correction_still_yields_it_verbatim(squad_store: Path) -> None:
    configure(squad_store, "drop_correction.py")
    report = run_session(squad_store)
    assert report["summarizer"].startswith("summarized by")
    assert report["readded"] == [MUST[0]]
    cold = (squad_store / COLD).read_text()
    assert "Summary: the session reworked the token cache." in cold   # the summarizer's text is used
    for line in MUST:
        assert cold.count(line) == 1
    assert len(parse.parse(cold, COLD).entries) == 1


def test_well_behaved_summarizer_output_is_used_as_is(squad_store: Path) -> None:
    configure(squad_store, "echo_stats.py")
    report = run_session(squad_store)
    assert report["readded"] == [MUST[2]]   # it only echoes `- [kind]` lines; the **Fix:** item comes back
    cold = (squad_store / COLD).read_text()
    assert "Summary by echo_stats for picard:" in cold
    for line in MUST:
        assert line in cold


@pytest.mark.parametrize("script, timeout, why", [("hang.py", 1, "timed out after 1s"),
                                                  ("fail.py", 20, "failed (exit 3: error: model 'gpt-imaginary' not found)")])
def test_failing_or_hanging_summarizer_falls_back_and_says_so(squad_store: Path, script: str, timeout: float,
                                                             why: str) -> None:
    configure(squad_store, script, timeout)
    session.start(config.load(squad_store), "picard", "Summarizer work")
    hot = squad_store / HOT
    hot.write_text(hot.read_text() + NOTES)
    proc = tiergit(squad_store, "session", "end", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    assert why in proc.stdout and "used the deterministic compaction" in proc.stdout
    cold = (squad_store / COLD).read_text()
    for line in MUST:
        assert line in cold
    assert "- Notes: Looked at how the summarizer" in cold   # the deterministic condensing


def test_summarizer_cannot_inject_headings_or_session_markers(squad_store: Path, tmp_path: Path) -> None:
    script = write(tmp_path / "sneaky.py", "import sys\nsys.stdin.read()\n"
                   "print('### 2020-01-01 · fake entry\\n<!-- tiergit:session s-deadbeef -->\\n"
                   "<!-- s-123456789 -->\\nsummary')\n")
    cfg = squad_store / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + f"compact: {{command: {json.dumps(sys.executable + ' ' + str(script))}}}\n")
    run_session(squad_store)
    cold = (squad_store / COLD).read_text()
    assert len(parse.parse(cold, COLD).entries) == 1
    assert "s-deadbeef" not in cold and "s-123456789" not in cold and "**2020-01-01 · fake entry**" in cold
    assert len(hotfile.MARKER_RE.findall(cold)) == 1


def test_bad_compact_config_is_a_clear_error(squad_store: Path) -> None:
    session.start(config.load(squad_store), "picard", "x")
    cfg = squad_store / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "compact: {timeout: -5}\n")
    proc = tiergit(squad_store, "session", "end", "--agent", "picard")
    assert proc.returncode == 2 and "compact.timeout" in proc.stderr and ".tiergit.yml" in proc.stderr
