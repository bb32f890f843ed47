"""Squad's own memory is memory too: decisions.md and the governed store's `local/` entries are
tiers read in place - recalled, checked, in status - never rewritten, archived or marked
merge=tiergit; FORBIDDEN, TRANSIENT and tombstoned entries are never recalled."""
from __future__ import annotations

import json

from conftest import commit, git, ok, tiergit, write

LOCAL = ".squad/memory/local"


def _entry(name: str, cls: str, text: str) -> str:
    return (f"---\nid: {name}-0000\nclass: {cls}\nloadGuidance: [ON-DEMAND]\ntitle: \"{text[:30]}\"\n"
            f"author: \"unknown\"\ncreatedAt: 2026-11-01T10:00:00.000Z\nmetadata: {{}}\n---\n\n{text}\n")


def _store(repo):
    write(repo / f"{LOCAL}/storage-7387104c.md", _entry("a", "LOCAL", "- Storage accounts use StorageV2 with TLS 1.2 only."))
    write(repo / f"{LOCAL}/secret-plan-11111111.md", _entry("b", "FORBIDDEN", "- The zebra launch codename is Quokka."))
    write(repo / f"{LOCAL}/gone-22222222.md", _entry("c", "LOCAL", "- Pelican pipelines deploy on Fridays."))
    write(repo / ".squad/memory/tombstones/c-0000.json",
          json.dumps({"id": "c-0000", "path": f"{LOCAL}/gone-22222222.md", "loadGuidance": "[ARCHIVE]"}))
    write(repo / ".squad/decisions.md", "# Decisions\n\n### 2026-04-02: Validation\n\n**By:** Ana\n\n"
                                        "All require `OpenXmlValidator` before/after validation.\n")


def _recall(repo, query: str) -> list[dict]:
    return json.loads(ok(tiergit(repo, "recall", query, "--json", "--no-log")).stdout)["hits"]


def test_squads_store_is_recalled_checked_and_shown_never_rewritten(squad_repo):
    repo = squad_repo
    _store(repo)
    commit(repo, "squad memory")
    before = {p: p.read_bytes() for p in (repo / ".squad").rglob("*") if p.is_file()
              and ("local" in p.parts or p.name == "decisions.md")}
    hits = _recall(repo, "StorageV2 TLS storage accounts")
    assert hits and hits[0]["path"] == f"{LOCAL}/storage-7387104c.md"
    assert any(h["path"] == ".squad/decisions.md" for h in _recall(repo, "OpenXmlValidator before after validation"))
    assert not [h for h in _recall(repo, "zebra launch codename Quokka") if "secret-plan" in h["path"]]
    assert not [h for h in _recall(repo, "Pelican pipelines deploy Fridays") if "gone-" in h["path"]]

    status = json.loads(ok(tiergit(repo, "status", "--json")).stdout)
    tiers = {f["path"]: f["tier"] for f in status["files"]}
    assert tiers[".squad/decisions.md"] == "decisions" and tiers[f"{LOCAL}/storage-7387104c.md"] == "governed"
    write(repo / f"{LOCAL}/leak-33333333.md", _entry("d", "LOCAL", "- token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"))
    check = tiergit(repo, "check", "--all")
    assert check.returncode == 1 and f"{LOCAL}/leak-33333333.md:11: SEC001" in check.stdout
    (repo / f"{LOCAL}/leak-33333333.md").unlink()
    for args in (("archive", "--apply"), ("check", "--fix")):
        tiergit(repo, *args, env={"TIERGIT_TODAY": "2028-01-01"})
    after = {p: p.read_bytes() for p in before}
    assert after == before                                   # read in place: never rewritten or moved
    for rel in (".squad/decisions.md", f"{LOCAL}/storage-7387104c.md"):
        assert git(repo, "check-attr", "merge", "--", rel).stdout.strip().endswith("unspecified"), rel


def test_a_decisions_md_over_the_file_limit_never_blocks_a_commit(squad_repo):
    repo = squad_repo
    big = "# Decisions\n\n" + "".join(f"### 2026-01-{1 + i % 28:02d}: D{i}\n\n**What:** decision {i} " + "x" * 900
                                      + "\n\n" for i in range(1200))
    write(repo / ".squad/decisions.md", big)
    assert len(big) > 1048576
    check = tiergit(repo, "check", "--all")
    assert check.returncode == 0 and ".squad/decisions.md:1: TG003 [warning]" in check.stdout, check.stdout
    git(repo, "add", "-A")
    assert git(repo, "commit", "-q", "-m", "a big decisions.md", check=False).returncode == 0


def test_forbidden_and_tombstoned_entries_are_never_served_at_spawn(squad_repo):
    repo = squad_repo
    _store(repo)
    ok(tiergit(repo, "session", "start", "--agent", "picard", "--task", "zebra launch codename pelican pipelines"))
    prompt = ok(tiergit(repo, "context", "--agent", "picard", "--include-cold",
                        "--task", "zebra launch codename pelican pipelines")).stdout
    assert "Quokka" not in prompt and "Pelican pipelines deploy" not in prompt
    served = ok(tiergit(repo, "context", "--agent", "picard", "--include-cold", "--task", "validation")).stdout
    assert "OpenXmlValidator" not in served                   # decisions.md is never loaded whole (load: never)


def test_decision_and_policy_inbox_entries_are_promotion_candidates(squad_repo):
    """Entries as squad-sdk 0.13.1 writes them (`squad memory write --class DECISION|POLICY`)."""
    repo = squad_repo
    write(repo / ".squad/agents/data/history.md", "# Data\n\n## Learnings\n\n- Positronic net is fine.\n")
    write(repo / ".squad/decisions/inbox/bicep-bd8a2a5c.md", _entry("e", "DECISION", "We use Bicep, not ARM, for IaC."))
    write(repo / ".squad/memory/policy-inbox/tls-1a46e6f4.md", _entry("f", "POLICY", "Storage accounts require TLS 1.2."))
    write(repo / ".squad/memory/policy-inbox/codename-2b2b2b2b.md", _entry("g", "FORBIDDEN", "The codename is Quokka."))
    ok(tiergit(repo, "import", "squad", "--apply"))
    staging = (repo / ".squad/memory/staging/imported.md").read_text()
    assert "- [decision] We use Bicep, not ARM, for IaC." in staging
    assert "- [rule] Storage accounts require TLS 1.2." in staging
    assert "Quokka" not in staging
    listed = ok(tiergit(repo, "promote", "--all")).stdout
    assert "We use Bicep, not ARM" in listed and "Quokka" not in listed
