"""The Mermaid blocks tiergit writes (PR bodies, job summaries) parse with the REAL Mermaid
parser: the pinned `mermaid` npm package (tests/js, installed by scripts/test) under Node,
with jsdom as its DOM. (mermaid-cli would need a browser download, refused here.)"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import PROJECT, git, tiergit, write

from tiergit.core.charts import mermaid_budget_chart
from tiergit.features.statusmodel import mermaid_tier_sizes
from tiergit.shell.store import Store

pytestmark = pytest.mark.e2e

JS = PROJECT / "tests" / "js"
BLOCK_RE = re.compile(r"```mermaid\n(.*?)```", re.S)


@pytest.fixture(scope="module")
def parser():
    """One node process for the module, answering one line per request."""
    node = shutil.which("node")
    assert node, "node is not installed (Node.js 20 is needed for the Mermaid parser test)"
    assert (JS / "node_modules" / "mermaid").is_dir(), "run `bash scripts/test` once: it runs `npm ci` in tests/js"
    proc = subprocess.Popen([node, str(JS / "mermaid_parse.mjs")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, cwd=JS)
    yield proc
    proc.stdin.close()
    proc.wait(timeout=30)


@pytest.fixture
def mermaid_parse(parser):
    def parse(sources: list[str]) -> list[dict]:
        parser.stdin.write(json.dumps(sources) + "\n")
        parser.stdin.flush()
        line = parser.stdout.readline()
        assert line, "the mermaid parser process died"
        return json.loads(line)
    return parse


def blocks(markdown: str) -> list[str]:
    found = BLOCK_RE.findall(markdown)
    assert found, f"no ```mermaid block in:\n{markdown}"
    return found


def _store_with_files(squad_repo: Path) -> Store:
    mem = squad_repo / ".squad/memory"
    write(mem / "hot/picard.md", "# picard\n\n## Current task\n" + "- a task line with words\n" * 190)  # over budget
    write(mem / "hot/data.md", "# data\n\n- small\n")
    write(mem / "cold/picard.md", "# picard cold\n\n### Fix (2026-05-01)\n- **Pattern:** x\n" * 60)
    write(mem / "wiki/auth.md", '# auth "quoted" [brackets], commas\n\n- [rule] rotate tokens\n')
    return Store.open(squad_repo)


def test_tier_size_chart_parses_with_real_mermaid(squad_repo, mermaid_parse):
    store = _store_with_files(squad_repo)
    block = mermaid_tier_sizes(store)
    assert block.startswith("```mermaid\nxychart-beta\n") and block.endswith("```\n")
    [source] = blocks(block)
    assert re.search(r'x-axis \["cold/picard", "hot/data", "hot/picard", "wiki/auth"\]', source), source
    bars = [float(v) for v in re.search(r"bar \[(.*)\]", source).group(1).split(", ")]
    assert bars[2] > 100                       # hot/picard is over its budget, and the chart says so
    assert mermaid_parse([source]) == [{"ok": True, "type": "xychart"}]


def test_many_files_openclaw_lines_budgets_and_empty_store_all_parse(squad_repo, tmp_path, mermaid_parse):
    many = [{"label": f"hot/agent-{i}", "tier": "hot", "percent": 10.0 * i, "warn_percent": 80.0} for i in range(20)]
    empty = mermaid_budget_chart([])
    odd = mermaid_budget_chart([{"label": 'a "b" [c], d; e', "percent": 250.5, "warn_percent": 66.7}])
    claw = tmp_path / "claw"
    claw.mkdir()
    git(claw, "init", "-q", "-b", "main")
    assert tiergit(claw, "init", "--preset", "openclaw").returncode == 0
    write(claw / "MEMORY.md", "# Memory\n" + "- [rule] keep it short\n" * 320)  # lines budget only
    claw_block = mermaid_tier_sizes(Store.open(claw))
    assert '"MEMORY"' in claw_block
    sources = [blocks(mermaid_budget_chart(many))[0], blocks(empty)[0], blocks(odd)[0], blocks(claw_block)[0]]
    assert [r["ok"] for r in mermaid_parse(sources)] == [True, True, True, True]


def test_parser_rejects_a_broken_chart(mermaid_parse):
    """The check is live: the same parser refuses a malformed xychart."""
    good = blocks(mermaid_budget_chart([{"label": "hot/a", "percent": 5.0, "warn_percent": 80.0}]))[0]
    broken = good.replace("bar [5]", "bar [5,")
    assert broken != good
    result = mermaid_parse([broken])
    assert result[0]["ok"] is False and "Parse error" in result[0]["error"]


def test_check_job_summary_has_a_parsing_chart(squad_repo, tmp_path, mermaid_parse):
    _store_with_files(squad_repo)
    summary = tmp_path / "summary.md"
    proc = tiergit(squad_repo, "check", "--all", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert proc.returncode == 1                # hot/picard.md is over budget
    text = summary.read_text()
    assert text.startswith("## tiergit check") and "BUD001" in text
    [source] = blocks(text)
    assert "hot/picard" in source
    assert mermaid_parse([source]) == [{"ok": True, "type": "xychart"}]


def test_promotion_pr_body_chart_parses(squad_repo, tmp_path, mermaid_parse):
    """The PR body the nightly workflow opens (`tiergit promote --pr-body`) carries the chart."""
    _store_with_files(squad_repo)
    body = tmp_path / "body.md"
    proc = tiergit(squad_repo, "promote", "--pr-body", str(body))
    assert proc.returncode == 0, proc.stderr
    [source] = blocks(body.read_text())
    assert '"hot/picard"' in source and '"cold/picard"' in source
    assert mermaid_parse([source]) == [{"ok": True, "type": "xychart"}]
