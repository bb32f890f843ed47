"""`check` output formats (text, --json, --format github, $GITHUB_STEP_SUMMARY) and
`status` / `status --deep` / `--json` totals, on real repositories."""
from __future__ import annotations

import json

import pytest
from conftest import PROJECT, git, tiergit, write

from tiergit.shell import tokens

HOT = ".squad/memory/hot/picard.md"
COLD = ".squad/memory/cold/picard.md"
WIKI = ".squad/memory/wiki/auth.md"


def populate(repo):
    write(repo / HOT, "# Hot\n\n## Current task\n\n" + "- a line of notes that keeps growing\n" * 170)
    write(repo / COLD, "# Cold\n\n### Deploy (2026-05-01)\n\n- **Decision:** deploy on Tuesdays\n"
                       "- User: can you deploy now?\n")
    write(repo / WIKI, "# Auth\n\n- [rule] tokens expire after 1 h ^m-0a1b2c3d\n"
                       "- Assistant: sure, here is the plan\n")


def test_check_text_exit_1_on_critical(squad_repo):
    populate(squad_repo)
    proc = tiergit(squad_repo, "check")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{HOT}:1: BUD001 [critical] hot tier over budget: 6314 bytes > max 4096 (154%)")
    assert lines[1].startswith("  hint: trim it to under 4096 bytes")
    # Transcript lines are only refused in durable (reviewed) tiers: wiki, not cold.
    assert f"{WIKI}:4: TRN001 [critical] raw transcript line in the durable wiki tier" in proc.stdout
    assert f"{COLD}:6: TRN001" not in proc.stdout
    assert lines[-1] == "tiergit: 3 memory file(s) checked: 3 critical, 0 warning(s)"


def test_check_json(squad_repo):
    populate(squad_repo)
    proc = tiergit(squad_repo, "check", "--json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data["files"] == 3 and data["critical"] == 3
    codes = sorted((f["path"], f["code"], f["severity"]) for f in data["findings"])
    assert codes == [(HOT, "BUD001", "critical"), (HOT, "BUD001", "critical"), (WIKI, "TRN001", "critical")]
    assert all(set(f) == {"path", "line", "code", "severity", "message", "hint"} for f in data["findings"])
    assert json.loads(tiergit(squad_repo, "check", "--format", "json").stdout) == data


def test_check_github_annotations_and_step_summary(squad_repo, tmp_path):
    populate(squad_repo)
    summary = tmp_path / "summary.md"
    summary.write_text("## earlier step\n")
    proc = tiergit(squad_repo, "check", "--all", "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert proc.returncode == 1
    first = proc.stdout.splitlines()[0]
    assert first.startswith(f"::error file={HOT},line=1,title=tiergit BUD001::hot tier over budget: 6314 bytes")
    assert "%0A" not in first and " -- trim it to under 4096 bytes" in first
    assert f"::error file={WIKI},line=4,title=tiergit TRN001::" in proc.stdout
    text = summary.read_text()
    assert text.startswith("## earlier step\n## tiergit check\n")  # appended, never overwritten
    assert "| file | line | code | severity | message |" in text
    assert f"| `{HOT}` | 1 | BUD001 | critical |" in text


def test_check_staged_reads_the_index(squad_repo):
    write(squad_repo / HOT, "# Hot\n\n- small\n")
    git(squad_repo, "add", HOT)
    populate(squad_repo)  # the work tree is now over budget; the index is not
    staged = tiergit(squad_repo, "check", "--staged")
    assert staged.returncode == 0, staged.stdout
    assert staged.stdout.strip() == "tiergit: 1 memory file(s) checked, all within budget"
    assert tiergit(squad_repo, "check", HOT).returncode == 1


def test_check_ignores_paths_that_are_not_memory(squad_repo):
    proc = tiergit(squad_repo, "check", "README.md")
    assert proc.returncode == 0 and "0 memory file(s) checked" in proc.stdout


def test_status_totals_and_deep_counts(squad_repo):
    populate(squad_repo)
    plain = tiergit(squad_repo, "status")
    assert plain.returncode == 1            # a critical file: exit 1, as `check` does
    for name in ("hot", "cold", "wiki"):
        assert any(line.startswith(name) for line in plain.stdout.splitlines())
    assert "CRIT" in plain.stdout and "total  3 file(s)" in plain.stdout

    data = json.loads(tiergit(squad_repo, "status", "--json").stdout)
    files = {f["path"]: f for f in data["files"]}
    assert set(files) == {HOT, COLD, WIKI}
    for key in ("bytes", "lines", "tokens"):
        assert data["total"][key] == sum(f[key] for f in data["files"])
    assert data["total"]["files"] == 3 and data["total"]["health"] == "critical"
    assert files[HOT]["bytes"] == (squad_repo / HOT).stat().st_size
    assert files[HOT]["percent"] == 154.2 and files[HOT]["health"] == "critical"
    assert [t["tier"] for t in data["tiers"]] == ["hot", "cold", "wiki"]
    assert {t["tier"]: t["files"] for t in data["tiers"]} == {"hot": 1, "cold": 1, "wiki": 1}

    deep = json.loads(tiergit(squad_repo, "status", "--deep", "--json").stdout)
    dfiles = {f["path"]: f for f in deep["files"]}
    assert deep["total"]["tokens_exact"] is True
    for rel in (HOT, COLD, WIKI):
        exact = tokens.count_text((squad_repo / rel).read_text(), "cl100k_base").tokens
        assert dfiles[rel]["tokens"] == exact and dfiles[rel]["tokens_exact"]
    assert (dfiles[COLD]["entries"], dfiles[COLD]["pinned"], dfiles[COLD]["items"]) == (1, 1, 2)
    assert deep["total"]["tokens"] == sum(f["tokens"] for f in deep["files"])
    text = tiergit(squad_repo, "status", "--deep").stdout
    assert "~" not in text


def test_example_team_store_checks_clean_and_lists_every_tier():
    """The README's first command runs on examples/team."""
    check = tiergit(PROJECT, "--repo", "examples/team", "check", "--all")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "7 memory file(s) checked: 0 critical, 1 warning(s)" in check.stdout
    status = tiergit(PROJECT, "--repo", "examples/team", "status", "--json")
    data = json.loads(status.stdout)
    assert [t["tier"] for t in data["tiers"]] == ["hot", "cold", "wiki"]   # no Squad files: no Squad tiers
    assert all(t["files"] >= 1 for t in data["tiers"])
    agents = {f["path"].rsplit("/", 1)[1] for f in data["files"] if f["tier"] in ("hot", "cold")}
    assert agents == {"marlow.md", "juno.md", "osei.md"}
    assert data["total"]["health"] == "warning"
    text = tiergit(PROJECT, "--repo", "examples/team", "status").stdout
    for line in ("hot    .squad/memory/hot/marlow.md", "cold   .squad/memory/cold/osei.md",
                 "wiki   .squad/memory/wiki/ingestion.md"):
        assert line in text


@pytest.mark.e2e  # the hook fires under a real git commit
def test_conflict_markers_left_by_a_merge_are_refused_by_the_hook(squad_repo):
    from tiergit.features.checks import conflict_lines

    wiki = squad_repo / ".squad/memory/wiki/auth.md"
    wiki.parent.mkdir(parents=True, exist_ok=True)
    wiki.write_text("# Auth\n\n<<<<<<< ours\n- [rule] Refresh in the gateway.\n=======\n"
                    "- [rule] Refresh in the client.\n>>>>>>> theirs\n")
    git(squad_repo, "add", "-A")
    proc = git(squad_repo, "commit", "-q", "-m", "bad resolution", check=False)
    assert proc.returncode != 0 and "auth.md:3: MRG001" in proc.stdout + proc.stderr
    # A setext heading underline and markers inside a code fence are not conflicts.
    assert conflict_lines("Title\n=======\n\n```\n<<<<<<< HEAD\n```\n>>>>>>>x\n") == []


def test_status_on_a_large_store_defers_the_promotion_count_to_deep(squad_repo, monkeypatch):
    """A first `status` on a large store does not plan promotion (most of its time at 1,000 real-sized
    files); the line says how to count, `--deep` counts, and the next plain run reuses that count."""
    from tiergit.features.promotion import promotion_health

    monkeypatch.setattr(promotion_health, "PLAN_FILES_MAX", 3)
    populate(squad_repo)
    write(squad_repo / ".squad/memory/cold/riker.md", "# Cold\n\n### Keys (2026-05-01)\n\n- [rule] rotate keys monthly\n")
    plain = json.loads(tiergit(squad_repo, "status", "--json").stdout)
    assert plain["promotion"]["candidates_waiting"] is None
    assert any("not counted on a store of 4 memory files" in note and "--deep" in note for note in plain["notes"])
    deep = json.loads(tiergit(squad_repo, "status", "--deep", "--json").stdout)
    assert deep["promotion"]["candidates_considered"] >= 2
    again = json.loads(tiergit(squad_repo, "status", "--json").stdout)
    assert again["promotion"]["candidates_considered"] == deep["promotion"]["candidates_considered"]
    monkeypatch.setattr(promotion_health, "PLAN_FILES_MAX", 200)    # a small store counts at once
    (squad_repo / ".squad/memory/cold/riker.md").unlink()
    assert json.loads(tiergit(squad_repo, "status", "--json").stdout)["promotion"]["candidates_considered"] >= 1
