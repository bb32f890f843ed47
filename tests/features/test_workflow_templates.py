"""What the workflow templates do, and what `tiergit init --with-workflows` fills into them:
tiergit's own action, an install spec that resolves before a PyPI release, no path filter on
the required check, promote and archive on separate pull requests that are skipped when
nothing changed, review sync through a pull request into the detected default branch, and
a reusable `workflow_call` workflow."""
from __future__ import annotations

import json
import re

import pytest
import yaml
from conftest import PROJECT, git, tiergit

from tiergit import __version__
from tiergit.core.installspec import SpecProblem, runner_url
from tiergit.features.workflows import install_spec

TEMPLATES = PROJECT / "tiergit/templates"


def load(text: str) -> dict:
    data = yaml.safe_load(text)
    if True in data:            # YAML 1.1 reads the key `on` as True
        data["on"] = data.pop(True)
    return data


def template(name: str) -> dict:
    return load((TEMPLATES / "workflows" / name).read_text())


def step(job: dict, prefix: str) -> dict:
    return next(s for s in job["steps"] if s.get("uses", "").startswith(prefix))


def test_the_packaged_action_is_the_projects_action():
    assert (TEMPLATES / "action/action.yml").read_text() == (PROJECT / "action.yml").read_text()


def test_check_runs_on_every_pull_request_and_merge_queue_without_path_filters():
    data = template("tiergit-check.yml")
    assert data["on"]["pull_request"] is None and "merge_group" in data["on"]
    assert all("paths" not in (v or {}) and "paths-ignore" not in (v or {}) for v in data["on"].values())
    job = data["jobs"]["check"]
    assert job["permissions"] == {"contents": "read"}
    action = step(job, "./.github/actions/tiergit")
    assert action["with"] == {"command": "check", "format": "github", "install-spec": "@TIERGIT_SPEC@"}


def test_promote_and_archive_are_separate_pull_requests_skipped_when_nothing_changed():
    data = template("tiergit-promote.yml")
    assert data["on"]["schedule"][0]["cron"] and data["on"]["workflow_dispatch"]["inputs"]["dry_run"]
    branches = {}
    for name in ("promote", "archive"):
        job = data["jobs"][name]
        assert job["permissions"] == {"contents": "write", "pull-requests": "write"}
        action = step(job, "./.github/actions/tiergit")
        assert action["with"]["command"] == name and action["with"]["install-spec"] == "@TIERGIT_SPEC@"
        assert action["with"]["apply"] == "${{ inputs.dry_run && 'false' || 'true' }}"
        cpr = step(job, "peter-evans/create-pull-request@")
        branches[name] = cpr["with"]["branch"]
        assert "steps.tiergit.outputs.changed == 'true'" in cpr["if"]
        assert cpr["with"]["add-paths"] == "@ADD_PATHS@"
        assert cpr["with"]["reviewers"] == "${{ vars.TIERGIT_REVIEWERS }}"
        assert cpr["with"]["draft"] == "${{ vars.TIERGIT_DRAFT_PR == 'true' }}"
        assert cpr["with"]["token"] == "${{ steps.app-token.outputs.token || github.token }}"
        assert "base" not in cpr["with"]   # the branch the schedule checked out: the default branch
    assert branches == {"promote": "tiergit/promote", "archive": "tiergit/archive"}
    promote_pr = step(data["jobs"]["promote"], "peter-evans/create-pull-request@")
    assert "steps.tiergit.outputs.promoted != '0'" in promote_pr["if"]
    # A reviewed tier over its max gets its cut proposed in the same PR, even with 0 promoted.
    prune = next(s for s in data["jobs"]["promote"]["steps"] if s.get("id") == "prune")
    assert "tiergit audit --apply --pr-body" in prune["run"] and "steps.prune.outputs.cut == 'true'" in promote_pr["if"]
    assert promote_pr["with"]["body-path"] == "${{ steps.tiergit.outputs.pr-body }}"
    text = (TEMPLATES / "workflows/tiergit-promote.yml").read_text()
    assert "does NOT trigger other" in text and "GitHub App" in text


def test_review_sync_opens_a_pull_request_into_the_branch_the_promotion_merged_into():
    data = template("tiergit-review-sync.yml")
    text = (TEMPLATES / "workflows/tiergit-review-sync.yml").read_text()
    assert data["on"]["pull_request"] == {"types": ["closed"]} and "push" not in data["on"]
    assert not re.search(r"\bmain\b", text)           # the default branch is never named
    job = data["jobs"]["sync"]
    assert "github.event.pull_request.merged" in job["if"] and "'tiergit/promote'" in job["if"]
    checkout = step(job, "actions/checkout@")
    assert checkout["with"]["ref"] == "${{ github.event.pull_request.base.ref || github.ref_name }}"
    cpr = step(job, "peter-evans/create-pull-request@")
    assert cpr["with"]["base"] == checkout["with"]["ref"] and cpr["with"]["branch"] == "tiergit/review-sync"
    assert cpr["with"]["add-paths"] == "@LOG_PATHS@" and cpr["if"] == "${{ steps.tiergit.outputs.changed == 'true' }}"
    assert not any("git push" in s.get("run", "") for s in job["steps"])


def test_reusable_workflow_is_called_with_least_permissions_per_command():
    data = load((TEMPLATES / "org/tiergit-reusable.yml").read_text())
    call = data["on"]["workflow_call"]
    assert {"command", "install-spec", "add-paths", "reviewers", "draft"} <= set(call["inputs"])
    assert call["inputs"]["install-spec"]["default"] == "@TIERGIT_SPEC@"
    check, change = data["jobs"]["check"], data["jobs"]["change"]
    assert check["if"] == "inputs.command == 'check'" and check["permissions"] == {"contents": "read"}
    assert change["if"] == "inputs.command != 'check'"
    assert change["permissions"] == {"contents": "write", "pull-requests": "write"}
    assert step(change, "peter-evans/create-pull-request@")["if"] == "steps.run.outputs.changed == 'true'"
    # Inputs reach shell scripts only through env, never spliced into the script.
    for job in (check, change):
        assert not any("${{" in s.get("run", "") for s in job["steps"])


def test_init_fills_the_spec_and_the_store_paths_and_writes_the_action(repo):
    spec = "tiergit @ git+https://github.com/acme/tiergit@" + "a" * 40
    done = tiergit(repo, "init", "--preset", "squad", "--with-workflows", "--install-spec", spec)
    assert done.returncode == 0, done.stderr
    assert f"workflows install `{spec}` (given with --install-spec)" in done.stdout
    written = {p.name: p.read_text() for p in (repo / ".github/workflows").glob("*.yml")}
    assert set(written) == {"tiergit-check.yml", "tiergit-promote.yml", "tiergit-review-sync.yml"}
    assert not any("@" + "TIERGIT" in t or "_PATHS@" in t for t in written.values())
    promote = load(written["tiergit-promote.yml"])
    cpr = step(promote["jobs"]["archive"], "peter-evans/create-pull-request@")
    assert cpr["with"]["add-paths"] == ".squad/memory"
    assert step(promote["jobs"]["promote"], "./.github/actions/tiergit")["with"]["install-spec"] == spec
    sync = load(written["tiergit-review-sync.yml"])
    assert step(sync["jobs"]["sync"], "peter-evans/create-pull-request@")["with"]["add-paths"] == ".squad/memory/logs"
    assert (repo / ".github/actions/tiergit/action.yml").read_text() == (PROJECT / "action.yml").read_text()
    assert not (repo / ".github/workflows/tiergit-reusable.yml").exists()


def test_init_reusable_writes_only_the_workflow_call_workflow(repo):
    done = tiergit(repo, "init", "--preset", "openclaw", "--reusable", "--no-install", "--json",
                   "--install-spec", "tiergit==0.1.0")
    assert done.returncode == 0, done.stderr
    paths = {c["path"] for c in json.loads(done.stdout)["changes"]}
    assert ".github/workflows/tiergit-reusable.yml" in paths and not any("actions/" in p for p in paths)
    text = (repo / ".github/workflows/tiergit-reusable.yml").read_text()
    assert load(text)["on"]["workflow_call"]["inputs"]["install-spec"]["default"].startswith("tiergit")


def test_install_spec_follows_how_tiergit_was_installed(tmp_path):
    commit = "b" * 40
    vcs = json.dumps({"url": "git@github.com:acme/tiergit.git", "vcs_info": {"vcs": "git", "commit_id": commit}})
    assert install_spec(vcs)[0] == f"tiergit @ git+https://github.com/acme/tiergit.git@{commit}"
    local = json.dumps({"url": (tmp_path / "tier git").as_uri(), "dir_info": {"editable": True}})
    spec, source = install_spec(local, read_origin=lambda p: ("ssh://git@github.com/acme/tiergit.git", commit)
                                if p == tmp_path / "tier git" else None)
    assert spec == f"tiergit @ git+https://github.com/acme/tiergit.git@{commit}" and "origin" in source
    # From an index pip writes no direct_url.json: the release it came from.
    assert install_spec("")[0] == f"tiergit=={__version__}"
    # Nothing a runner can install: stop and ask, naming what was found.
    for found, problem in [(local, "no origin remote"),
                           (json.dumps({"url": "file:///tmp/tiergit-0.1.0-py3-none-any.whl", "archive_info": {}}),
                            "local file /tmp/tiergit-0.1.0-py3-none-any.whl"),
                           (json.dumps({"url": "file:///srv/tiergit", "vcs_info": {"vcs": "git", "commit_id": commit}}),
                            "file:///srv/tiergit")]:
        with pytest.raises(SpecProblem, match=re.escape(problem)) as exc:
            install_spec(found, read_origin=lambda p: None)
        assert "--install-spec" in exc.value.hint


def test_runner_urls_are_https_without_credentials_and_local_paths_have_none():
    assert runner_url("https://example.org/x.git") == "https://example.org/x.git"
    assert runner_url("https://x-access-token:ghp_secret@github.com/acme/t.git") == "https://github.com/acme/t.git"
    assert runner_url("ssh://git@github.com:22/acme/t.git") == "https://github.com/acme/t.git"
    assert runner_url("git@github.com:acme/t.git") == "https://github.com/acme/t.git"
    for local in ("/srv/tiergit", "../tiergit", "file:///srv/tiergit", "C:\\src\\tiergit", "~/src/tiergit", ""):
        assert runner_url(local) is None, local


@pytest.mark.parametrize("origin, expected", [
    ("git@github.com:acme/tiergit.git", "tiergit @ git+https://github.com/acme/tiergit.git@{head}"),
    ("ssh://git@github.com/acme/tiergit.git", "tiergit @ git+https://github.com/acme/tiergit.git@{head}"),
    ("https://github.com/acme/tiergit.git", "tiergit @ git+https://github.com/acme/tiergit.git@{head}"),
    ("{plain}", None)])
def test_install_spec_reads_a_real_checkouts_origin_and_pip_accepts_it(tmp_path, origin, expected):
    from packaging.requirements import Requirement

    checkout = tmp_path / "src"
    checkout.mkdir()
    git(checkout, "init", "-q", "-b", "trunk")
    git(checkout, "commit", "-q", "--allow-empty", "-m", "x")
    git(checkout, "remote", "add", "origin", origin.format(plain=tmp_path / "upstream"))
    head = git(checkout, "rev-parse", "HEAD").stdout.strip()
    local = json.dumps({"url": checkout.as_uri(), "dir_info": {}})
    if expected is None:
        with pytest.raises(SpecProblem, match="a local path a runner cannot reach"):
            install_spec(local)
        return
    spec = install_spec(local)[0]
    assert spec == expected.format(head=head)
    assert Requirement(spec).name == "tiergit" and Requirement(spec).url.startswith("git+https://")


def test_init_stops_and_asks_when_a_runner_could_not_install_the_spec(repo):
    done = tiergit(repo, "init", "--preset", "squad", "--with-workflows", "--install-spec", "tiergit @ /srv/x")
    assert done.returncode == 2 and "is not a URL" in done.stderr and "hint:" in done.stderr
    assert not (repo / ".github").exists() and not (repo / ".tiergit.yml").exists()
    other = tiergit(repo, "init", "--preset", "squad", "--with-workflows", "--install-spec", "requests==2.0")
    assert other.returncode == 2 and "installs 'requests', not tiergit" in other.stderr
    ok = tiergit(repo, "init", "--preset", "squad", "--with-workflows", "--install-spec", "tiergit==0.1.0")
    assert ok.returncode == 0 and "Allow GitHub Actions to create and approve pull requests" in ok.stdout


def test_init_keeps_an_older_workflow_and_says_it_differs(repo):
    old = repo / ".github/workflows/tiergit-review-sync.yml"
    old.parent.mkdir(parents=True)
    old.write_text("name: tiergit review sync\non: {push: {branches: [main]}}\n")
    done = tiergit(repo, "init", "--preset", "squad", "--with-workflows", "--no-install",
                   "--install-spec", "tiergit==0.1.0")
    assert done.returncode == 0, done.stderr
    assert old.read_text().startswith("name: tiergit review sync\non: {push")
    assert ".github/workflows/tiergit-review-sync.yml exists and differs from the current template: kept" in done.stdout


def test_every_output_and_input_the_templates_use_exists_on_the_action():
    action = yaml.safe_load((PROJECT / "action.yml").read_text())
    for path in sorted((TEMPLATES / "workflows").glob("*.yml")):
        text = path.read_text()
        used = set(re.findall(r"steps\.tiergit\.outputs\.([\w-]+)", text))
        assert used <= set(action["outputs"]), (path.name, used - set(action["outputs"]))
        for job in load(text)["jobs"].values():
            for s in job["steps"]:
                if s.get("uses") == "./.github/actions/tiergit":
                    assert set(s["with"]) <= set(action["inputs"]), (path.name, s["with"])
