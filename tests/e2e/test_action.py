"""The composite action's `run` steps, executed as GitHub would (bash -eo pipefail, env from
`inputs`, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files) in a real temporary repository.

Not run here: `actions/setup-python` (a `uses:` step) and the `install` step (pip from
PyPI); the tiergit of this checkout is put on PATH instead, which is what that step
installs from $GITHUB_ACTION_PATH.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT, git, write
from delivery_fixtures import squad_repo, squad_template  # noqa: F401

from tiergit.core.parse import item_id
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

pytestmark = pytest.mark.e2e

ACTION = yaml.safe_load((PROJECT / "action.yml").read_text())
INPUT_RE = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")


def run_action(repo: Path, tmp: Path, **overrides: str) -> tuple[subprocess.CompletedProcess, dict, str]:
    """Run every `run:` step except the pip install; returns (last step, outputs, summary)."""
    inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    inputs.update({k.replace("_", "-"): v for k, v in overrides.items()})
    out_file, summary = tmp / "github_output", tmp / "step_summary"
    out_file.write_text("")
    summary.write_text("")
    steps = [s for s in ACTION["runs"]["steps"] if "run" in s and s.get("id") != "install"]
    assert [s["id"] for s in steps] == ["run"]
    done = None
    for step in steps:
        env = {k: INPUT_RE.sub(lambda m: inputs[m[1]], str(v)) for k, v in step.get("env", {}).items()}
        assert not any("${{" in v for v in env.values()), env
        cwd = repo / INPUT_RE.sub(lambda m: inputs[m[1]], step.get("working-directory", "."))
        script = tmp / f"{step['id']}.sh"
        script.write_text(step["run"])
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd, capture_output=True,
            text=True, env={**os.environ, **env, "GITHUB_OUTPUT": str(out_file), "GITHUB_STEP_SUMMARY": str(summary),
                            "RUNNER_TEMP": str(tmp), "GITHUB_ACTION_PATH": str(PROJECT),
                            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    outputs = dict(line.split("=", 1) for line in out_file.read_text().splitlines() if "=" in line)
    assert set(outputs) <= {k for k in ACTION["outputs"]}, outputs
    return done, outputs, summary.read_text()


def test_check_passes_on_a_healthy_store(squad_repo, tmp_path):
    write(squad_repo / ".squad/memory/hot/picard.md", "# Hot\n\n## Current task\n\n- wire the merge driver\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "hot")
    done, outputs, _ = run_action(squad_repo, tmp_path, command="check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs == {"exit-code": "0", "changed": "false"}


def test_check_annotates_an_over_budget_file_and_fails(squad_repo, tmp_path):
    write(squad_repo / ".squad/memory/hot/picard.md", "# Hot\n\n" + "- a note that keeps on growing\n" * 200)
    done, outputs, summary = run_action(squad_repo, tmp_path, command="check")
    assert done.returncode == 1
    assert outputs["exit-code"] == "1"
    assert "::error file=.squad/memory/hot/picard.md" in done.stdout
    assert "picard.md" in summary


TODAY = clock.today()
COLD = f"""# Picard: cold memory

## Core Context

- Picard owns the auth service.

### Fix token cache expiry ({(TODAY - timedelta(days=60)).isoformat()})

- [decision] Pin MSAL to 2.x until the broker supports the new cache format #auth
- [rule] Refresh tokens in the gateway, never in the browser client #auth
"""


def seed_candidates(repo: Path) -> list[str]:
    write(repo / ".squad/memory/cold/picard.md", COLD)
    store = Store.open(repo)
    ids, events = [], []
    for line in COLD.splitlines():
        if line.startswith("- ["):
            iid = item_id(line)[0]
            ids.append(iid)
            events += [{"ts": f"{(TODAY - timedelta(days=1 + 2 * n)).isoformat()}T10:00:00Z",
                        "query": f"query {n} {line[:20]}", "agent": "picard", "id": iid,
                        "path": ".squad/memory/cold/picard.md", "entry": "x", "score": 0.9, "rank": 1}
                       for n in range(4)]
    logs.append(store, logs.RECALLS, events)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cold memory and recalls")
    return ids


def test_promote_writes_the_pr_body_and_reports_outputs(squad_repo, tmp_path):
    ids = seed_candidates(squad_repo)
    preview, outputs, _ = run_action(squad_repo, tmp_path, command="promote")
    assert preview.returncode == 0, preview.stderr
    assert outputs["changed"] == "false" and outputs["promoted"] == "2"
    git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    done, outputs, summary = run_action(squad_repo, tmp_path, command="promote", apply="true")
    assert done.returncode == 0, done.stderr
    assert outputs["exit-code"] == "0" and outputs["promoted"] == "2" and outputs["changed"] == "true"
    body = Path(outputs["pr-body"]).read_text()
    assert Path(outputs["pr-body"]) == tmp_path / "tiergit-pr-body.md"
    assert body.startswith("<!-- tiergit:promotion -->\n## tiergit: promote 2 item(s) into reviewed memory")
    assert "| item | kind | score | recalls | source | reason |" in body
    for iid in ids:
        assert f"`{iid}`" in body
    assert body in summary and body in done.stdout
    wiki = (squad_repo / ".squad/memory/wiki/auth.md").read_text()
    assert all(f"^{iid}" in wiki for iid in ids)


def test_promote_limit_and_custom_body_path(squad_repo, tmp_path):
    seed_candidates(squad_repo)
    custom = tmp_path / "body.md"
    done, outputs, _ = run_action(squad_repo, tmp_path, command="promote", limit="1", pr_body=str(custom))
    assert done.returncode == 0, done.stderr
    assert outputs["promoted"] == "1" and outputs["pr-body"] == str(custom)
    assert "promote 1 item(s)" in custom.read_text()


def test_archive_and_review_sync_run(squad_repo, tmp_path):
    seed_candidates(squad_repo)
    for command in ("archive", "review-sync"):
        done, outputs, _ = run_action(squad_repo, tmp_path, command=command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert outputs == {"exit-code": "0", "changed": "false"}


def test_unknown_command_is_a_clear_error(squad_repo, tmp_path):
    done, outputs, _ = run_action(squad_repo, tmp_path, command="deploy")
    assert done.returncode == 2
    assert "::error::tiergit action: unknown command 'deploy'" in done.stdout
    assert outputs == {}
