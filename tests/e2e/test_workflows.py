"""Workflow templates, this project's CI and action.yml: offline schema validation, zizmor,
pinned actions, least permissions, and what `tiergit init --with-workflows` writes."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT

pytestmark = pytest.mark.e2e

TEMPLATES = PROJECT / "tiergit/templates/workflows"
REUSABLE = PROJECT / "tiergit/templates/org/tiergit-reusable.yml"
WORKFLOWS = sorted(TEMPLATES.glob("*.yml")) + [REUSABLE] + sorted((PROJECT / ".github/workflows").glob("*.yml"))
ACTION = PROJECT / "action.yml"
BIN = Path(sys.executable).parent
# Any attempt to reach the network fails fast: the validators must work offline.
OFFLINE = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
           "https_proxy": "http://127.0.0.1:9", "http_proxy": "http://127.0.0.1:9", "NO_PROXY": ""}


def tool(name: str, *args: str) -> subprocess.CompletedProcess:
    exe = BIN / name if (BIN / name).exists() else shutil.which(name)
    assert exe, f"{name} is not installed (it is in the [test] extra)"
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env={**os.environ, **OFFLINE})


def load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text())
    if True in data:            # YAML 1.1 reads the key `on` as True
        data["on"] = data.pop(True)
    return data


def test_all_three_templates_and_ci_exist():
    names = {p.name for p in WORKFLOWS}
    assert {"tiergit-check.yml", "tiergit-promote.yml", "tiergit-review-sync.yml", "ci.yml"} <= names


def test_workflows_pass_the_bundled_github_workflows_schema():
    done = tool("check-jsonschema", "--no-cache", "--builtin-schema", "vendor.github-workflows",
                *map(str, WORKFLOWS))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


def test_action_passes_the_bundled_github_actions_schema():
    done = tool("check-jsonschema", "--no-cache", "--builtin-schema", "vendor.github-actions", str(ACTION))
    assert done.returncode == 0, done.stdout + done.stderr


def test_schema_validation_catches_a_broken_workflow(tmp_path):
    broken = load(TEMPLATES / "tiergit-promote.yml")
    del broken["jobs"]["promote"]["runs-on"]
    broken["jobs"]["promote"]["permissions"]["contents"] = "sometimes"
    path = tmp_path / "broken.yml"
    path.write_text(yaml.safe_dump(broken))
    done = tool("check-jsonschema", "--no-cache", "--builtin-schema", "vendor.github-workflows", str(path))
    assert done.returncode == 1, done.stdout


def test_zizmor_offline_reports_nothing_medium_or_higher():
    done = tool("zizmor", "--offline", "--min-severity", "medium", "--format", "json",
                *map(str, WORKFLOWS), str(ACTION))
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == []


def test_zizmor_catches_an_injectable_unpinned_workflow(tmp_path):
    bad = (TEMPLATES / "tiergit-check.yml").read_text()
    bad = re.sub(r"actions/checkout@[0-9a-f]{40} # \S+", "actions/checkout@main", bad)
    bad = bad.replace("        uses: ./.github/actions/tiergit\n",
                      '        run: echo "${{ github.event.pull_request.title }}"\n')
    path = tmp_path / ".github/workflows/bad.yml"
    path.parent.mkdir(parents=True)
    path.write_text(bad)
    done = tool("zizmor", "--offline", "--min-severity", "medium", "--format", "json", str(path))
    found = {f["ident"] for f in json.loads(done.stdout)}
    assert {"template-injection", "unpinned-uses"} <= found, found


@pytest.mark.parametrize("path", WORKFLOWS + [ACTION], ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_version(path):
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", path.read_text(), flags=re.M)
    assert uses
    for ref, comment in uses:
        if ref.startswith("./"):   # this repository's own copy of tiergit's action.yml
            assert ref == "./.github/actions/tiergit" and not comment.strip(), (ref, comment)
            continue
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", ref), ref
        assert re.fullmatch(r"\s*# v\d+\.\d+\.\d+", comment), (ref, comment)


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_least_privilege_permissions_and_no_persisted_credentials(path):
    data = load(path)
    assert data["permissions"] == {}
    for job in data["jobs"].values():
        assert set(job["permissions"].values()) <= {"read", "write"}
        assert job.get("timeout-minutes")
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False


def test_ci_runs_the_project_test_script():
    data = load(PROJECT / ".github/workflows/ci.yml")
    runs = [s.get("run", "") for s in data["jobs"]["test"]["steps"]]
    assert "bash scripts/test" in runs


