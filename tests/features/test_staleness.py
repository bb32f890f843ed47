"""Memory checked against the repository it lives in: an item whose cited path was deleted or renamed,
or whose symbol no longer occurs in the tree, is stale; live citations and citations of things that
were never in the repository are not. Real git history built here (renames, deletions, symbol removal)."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, tiergit, write

from tiergit.core.citations import cites
from tiergit.features import staleness
from tiergit.shell.store import Store

COLD = ".squad/memory/cold/picard.md"
DAY1 = {"GIT_AUTHOR_DATE": "2026-03-01T12:00:00Z", "GIT_COMMITTER_DATE": "2026-03-01T12:00:00Z"}
DAY2 = {"GIT_AUTHOR_DATE": "2026-04-10T12:00:00Z", "GIT_COMMITTER_DATE": "2026-04-10T12:00:00Z"}
MEMORY = """# picard

### Token cache work (2026-03-01)

- Fixed expiry in `src/auth/token.ts`: `TokenCache` kept expired tokens.
- Setup steps live in docs/setup.md.
- `parse_config()` reads the YAML twice; call it once.
- The OpenXML SDK's `OpenXmlValidator` must run before save.
- Pin versions in package.json.
- `TokenCache` is the one cache for tokens.

### After the move (2026-04-15)

- `load_config()` now reads `src/util/config.py` once.
"""


@pytest.fixture
def history(repo: Path) -> Path:
    assert tiergit(repo, "init", "--preset", "squad", "--no-install").returncode == 0
    write(repo / "src/auth/token.ts", "export class TokenCache {\n  refresh() { return 1; }\n}\n" + "// pad\n" * 20)
    write(repo / "src/util/config.py", "def parse_config(path):\n    return open(path).read()\n")
    write(repo / "docs/setup.md", "# Setup\n\nRun it.\n")
    write(repo / COLD, MEMORY)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "day 1", env=DAY1)
    git(repo, "mv", "src/auth/token.ts", "src/auth/session.ts")
    git(repo, "rm", "-q", "docs/setup.md")
    write(repo / "src/util/config.py", "def load_config(path):\n    return open(path).read()\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "day 2: move, delete, rename a function", env=DAY2)
    return repo


def verdicts(repo: Path) -> dict[str, str]:
    store = Store.open(repo)
    report = staleness.check(store, staleness.store_items(store))
    lines = (repo / COLD).read_text().splitlines()
    return {lines[line - 1]: "; ".join(s.reason for s in found) for (path, line), found in report.stale.items()}


def test_every_stale_citation_is_found_and_no_live_one_is_flagged(history):
    found = verdicts(history)
    assert found == {
        "- Fixed expiry in `src/auth/token.ts`: `TokenCache` kept expired tokens.":
            "cites src/auth/token.ts, renamed to src/auth/session.ts",
        "- Setup steps live in docs/setup.md.": "cites docs/setup.md, which was deleted",
        "- `parse_config()` reads the YAML twice; call it once.":
            "cites `parse_config`, which no longer occurs in the repository",
    }


def test_the_rename_suggestion_rewrites_the_path(history):
    store = Store.open(history)
    report = staleness.check(store, staleness.store_items(store))
    (moved,) = [s for found in report.stale.values() for s in found if s.renamed_to]
    assert moved.cited == "src/auth/token.ts" and moved.renamed_to == "src/auth/session.ts"


def test_a_second_run_asks_git_nothing_new_and_agrees(history, monkeypatch):
    first = verdicts(history)
    from tiergit.shell import git as git_mod

    calls: list[str] = []
    real = git_mod.words_in_tree
    monkeypatch.setattr(git_mod, "words_in_tree", lambda *a: calls.append(a[1]) or real(*a))
    assert verdicts(history) == first and calls == []     # every tree's words came from the cache


@pytest.mark.parametrize("text, paths, symbols", [
    ("Fixed `src/auth/token.ts`: `TokenCache.refresh()` kept expired tokens",
     ("src/auth/token.ts",), ("TokenCache", "refresh")),
    ("see docs/setup.md:12 and package.json", ("docs/setup.md", "package.json"), ()),
    ("tabs and/or spaces over TCP/IP on 2026/05/01; https://x.org/a/b.md ~/.bashrc /etc/hosts", (), ()),
    ("Run `dotnet format`; CI on GitHub Actions", (), ()),
    ("`ControlSkin.BorderStyle` throws; FooService calls load_user_profile()",
     (), ("ControlSkin", "BorderStyle", "load_user_profile", "FooService")),
])
def test_what_an_item_cites(text, paths, symbols):
    found = cites(text)
    assert found.paths == paths and set(found.symbols) == set(symbols)


WIKI = ".squad/memory/wiki/auth.md"


def test_audit_rewrites_a_renamed_path_and_proposes_the_rest_for_the_archive(history):
    write(history / WIKI, "# Auth\n\n### Tokens (2026-03-01)\n\n"
                          "- [fact] Token refresh lives in `src/auth/token.ts`.\n"
                          "- [fact] Setup is described in docs/setup.md.\n"
                          "- [fact] `TokenCache` is the only token cache.\n"
                          "- [rule] Indent TypeScript files with 4 spaces.\n\n"
                          "### Style (2026-04-20)\n\n- [rule] Indent TypeScript files with 2 spaces to match Prettier.\n")
    git(history, "add", "-A")
    git(history, "commit", "-q", "--no-verify", "-m", "wiki", env=DAY2)
    done = tiergit(history, "audit", "--json")
    assert done.returncode == 0, done.stderr
    import json

    reasons = {f["line"]: f["reason"] for f in json.loads(done.stdout)["findings"] if f["path"] == WIKI}
    assert reasons[5] == "stale: cites src/auth/token.ts, renamed to src/auth/session.ts (rewritten)"
    assert reasons[6] == "stale: cites docs/setup.md, which was deleted"
    assert reasons[8].startswith(f"superseded by {WIKI}:12 (")
    assert 7 not in reasons
    applied = tiergit(history, "audit", "--apply")
    assert applied.returncode == 0, applied.stderr
    wiki = (history / WIKI).read_text()
    assert "- [fact] Token refresh lives in `src/auth/session.ts`." in wiki
    assert "docs/setup.md" not in wiki and "4 spaces" not in wiki and "`TokenCache` is the only" in wiki
    archived = "".join(p.read_text() for p in (history / ".squad/memory/archive").rglob("*.md"))
    assert "docs/setup.md" in archived and "4 spaces" in archived      # nothing lost


@pytest.mark.e2e
def test_the_post_merge_hook_reports_what_the_merge_made_stale_and_never_blocks(history):
    import subprocess

    from tiergit.features import install

    install.install(history)
    git(history, "checkout", "-q", "-b", "cleanup")
    git(history, "rm", "-q", "src/util/config.py")
    write(history / WIKI, "# Auth\n\n### Style (2026-04-20)\n\n- [rule] Indent TypeScript files with 2 spaces.\n")
    git(history, "add", "-A")
    git(history, "commit", "-q", "--no-verify", "-m", "remove config.py", env=DAY2)
    git(history, "checkout", "-q", "main")
    write(history / WIKI.replace("auth", "style"), "# Style\n\n### Old (2026-03-01)\n\n"
                                                    "- [rule] Indent TypeScript files with 4 spaces.\n")
    git(history, "add", "-A")
    git(history, "commit", "-q", "--no-verify", "-m", "style on main", env=DAY2)
    merged = subprocess.run(["git", "merge", "--no-ff", "-m", "merge cleanup", "cleanup"], cwd=history,
                            capture_output=True, text=True, timeout=120)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    said = merged.stdout + merged.stderr
    assert "the merge made 1 memory item(s) stale" in said
    assert f"{COLD}:14: cites src/util/config.py, which was deleted" in said
    assert "the merge brought 1 item(s) that supersede another" in said
    assert f"{WIKI}:5 supersedes .squad/memory/wiki/style.md:5" in said


def test_relations_mark_the_stale_and_the_superseded_among_a_few_items(history):
    from datetime import date

    store = Store.open(history)
    entries = [staleness.Cited(COLD, 5, "a", "- Fixed expiry in `src/auth/token.ts`.", date(2026, 3, 1)),
               staleness.Cited(COLD, 7, "b", "- [rule] Indent TypeScript files with 4 spaces.", date(2026, 3, 1)),
               staleness.Cited(COLD, 9, "c", "- [rule] Indent TypeScript files with 2 spaces.", date(2026, 4, 2))]
    marks = staleness.relations(store, entries)
    assert marks[(COLD, 5)].note() == "stale: cites src/auth/token.ts, renamed to src/auth/session.ts"
    assert marks[(COLD, 7)].superseded_by == (COLD, 9) and marks[(COLD, 9)].supersedes == (COLD, 7)
    assert "superseded by" in marks[(COLD, 7)].note() and (COLD, 9) not in {k for k, v in marks.items() if v.stale}


def test_context_leaves_stale_items_out_and_says_how_many(history):
    done = tiergit(history, "context", "--agent", "picard", "--task", "Fix token cache expiry and parse_config setup",
                   "--json")
    assert done.returncode == 0, done.stderr
    import json

    spawn = json.loads(done.stdout)
    prompt, notes = spawn["prompt"], " ".join(spawn["notes"])
    assert "`TokenCache` is the one cache for tokens." in prompt          # live: served
    assert "src/auth/token.ts" not in prompt and "docs/setup.md" not in prompt and "`parse_config()`" not in prompt
    assert "stale item(s) left out" in notes
    write(history / ".tiergit.yml", (history / ".tiergit.yml").read_text() + "spawn: {stale: mark}\n")
    marked = json.loads(tiergit(history, "context", "--agent", "picard", "--task",
                                "Fix token cache expiry and parse_config setup", "--json").stdout)
    assert "(stale: cites src/auth/token.ts, renamed to src/auth/session.ts)" in marked["prompt"]


def test_recall_marks_a_stale_hit_on_the_full_and_the_fast_path(history):
    full = tiergit(history, "recall", "expired tokens in token.ts", "--no-log")
    assert full.returncode == 0, full.stderr
    assert "! stale: cites src/auth/token.ts, renamed to src/auth/session.ts" in full.stdout
    from conftest import tiergit_process

    fast = tiergit_process(history, "recall", "expired tokens in token.ts", "--no-log")   # index fresh: fast path
    assert fast.returncode == 0 and fast.stdout == full.stdout
