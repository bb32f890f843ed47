"""`tiergit recall`: BM25 ranking, the incremental index, the recall log (and its union merge), bad input."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import git, tiergit, write

from tiergit.features import recall, recall_index
from tiergit.shell.store import Store

COLD_PICARD = """# picard

## Core Context

- [rule] Token cache entries expire after 15 minutes; refresh on 401. ^m-0000aaaa

### Fix token cache expiry (2026-05-01)

- **Root cause:** the MSAL token cache kept expired tokens after a clock skew.
- **Fix:** compare expiry with a 5 minute skew margin.

### Dashboard colours (2026-05-03)

- Switched the dashboard palette to the colour-blind safe set.
"""
COLD_RIKER = """# riker

### Deploy pipeline (2026-05-02)

- The deploy pipeline caches docker layers between runs.
"""
WIKI_AUTH = """# Auth

- [decision] All services use MSAL for token acquisition. ^m-0000bbbb
"""


def _store(repo: Path) -> Path:
    root = repo / ".squad" / "memory"
    write(root / "cold" / "picard.md", COLD_PICARD)
    write(root / "cold" / "riker.md", COLD_RIKER)
    write(root / "wiki" / "auth.md", WIKI_AUTH)
    write(root / "hot" / "picard.md", "# picard hot\n\n## Current task\n\n- token cache expiry in hot\n")
    return root


def _hits(proc) -> list[dict]:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hits"]


def test_ranks_best_match_first_with_path_entry_date_kind(squad_repo):
    _store(squad_repo)
    hits = _hits(tiergit(squad_repo, "recall", "token cache expiry", "--json"))
    # items holding every query word (in their text or entry heading) come first
    assert hits[0]["path"] == ".squad/memory/cold/picard.md"
    assert "m-0000aaaa" in [h["id"] for h in hits[:3]]
    assert max(h["score"] for h in hits[:3]) == 1.0 and hits[-1]["score"] < 1.0
    # riker's "caches docker layers" matches `cache` by its stem only: it may come, but last
    assert {h["path"] for h in hits} <= {".squad/memory/cold/picard.md", ".squad/memory/wiki/auth.md",
                                         ".squad/memory/cold/riker.md"}
    assert all(h["path"] != ".squad/memory/cold/riker.md" for h in hits[:3])
    fix = next(h for h in hits if h["kind"] == "error" and "Fix:" in h["text"])
    assert fix["entry"] == "Fix token cache expiry (2026-05-01)" and fix["date"] == "2026-05-01"
    # ranked by coverage + bm25 relative to the best candidate; relevance (shown) falls with the rank
    rel = [h["relevance"] for h in hits]
    assert rel == sorted(rel, reverse=True) and rel[0] == 1.0 and [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert all(0 < h["score"] <= 1 for h in hits)
    # hot is already in the agent's prompt: not searched by default
    assert not any("/hot/" in h["path"] for h in hits)
    # unrelated items are not returned
    assert not any("palette" in h["text"] for h in hits)


def test_text_output_and_limit(squad_repo):
    _store(squad_repo)
    proc = tiergit(squad_repo, "recall", "token", "-n", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(" 1. ") and " 2. " not in proc.stdout
    assert "m-0000aaaa" in proc.stdout or "m-0000bbbb" in proc.stdout


def test_agent_and_tier_filters(squad_repo):
    _store(squad_repo)
    hits = _hits(tiergit(squad_repo, "recall", "deploy pipeline docker", "--agent", "picard", "--json"))
    assert not any(h["path"].endswith("riker.md") for h in hits)
    hits = _hits(tiergit(squad_repo, "recall", "deploy pipeline docker", "--agent", "riker", "--json"))
    assert hits[0]["path"].endswith("cold/riker.md")
    hits = _hits(tiergit(squad_repo, "recall", "MSAL token", "--tier", "wiki", "--json"))
    assert [h["id"] for h in hits] == ["m-0000bbbb"]
    hits = _hits(tiergit(squad_repo, "recall", "token cache", "--tier", "hot", "--json"))
    assert hits and all(h["tier"] == "hot" for h in hits)


def test_each_hit_is_logged_unless_no_log(squad_repo):
    root = _store(squad_repo)
    log = root / "logs" / "recalls.jsonl"
    _hits(tiergit(squad_repo, "recall", "MSAL", "--agent", "picard", "--json"))
    events = [json.loads(x) for x in log.read_text().splitlines()]
    assert events and {e["query"] for e in events} == {"MSAL"}
    assert set(events[0]) == {"ts", "query", "agent", "id", "path", "entry", "score", "relevance", "rank"}
    assert events[0]["agent"] == "picard" and events[0]["rank"] == 1
    before = log.read_text()
    _hits(tiergit(squad_repo, "recall", "MSAL", "--no-log", "--json"))
    assert log.read_text() == before


def test_index_is_incremental_by_blob(squad_repo):
    root = _store(squad_repo)
    store = Store.open(squad_repo)
    db = recall_index.connect(recall_index.index_path(squad_repo))
    first = recall_index.refresh(store, db)
    assert first.reindexed == first.files == 4
    assert recall_index.refresh(store, db).reindexed == 0
    (root / "cold" / "riker.md").write_text(COLD_RIKER + "- Rollbacks use blue green slots.\n")
    again = recall_index.refresh(store, db)
    assert again.reindexed == 1
    assert recall.search(db, "blue green rollbacks", ["cold"])[0].path.endswith("riker.md")
    (root / "cold" / "riker.md").touch()  # same content, new mtime: hashed, not parsed
    assert recall_index.refresh(store, db).reindexed == 0
    (root / "cold" / "riker.md").unlink()
    gone = recall_index.refresh(store, db)
    assert gone.removed == 1
    assert not recall.search(db, "blue green rollbacks", ["cold"])
    db.close()
    # the index lives in the git dir, never in the work tree
    assert recall_index.index_path(squad_repo).is_relative_to(squad_repo / ".git")
    assert git(squad_repo, "status", "--porcelain", "--ignored").stdout.count("sqlite") == 0


def test_archive_and_staging_are_searched(squad_repo):
    root = _store(squad_repo)
    write(root / "archive" / "2026-01" / "picard.md", "# a\n\n### Old thing (2026-01-02)\n\n- Warp core breach drill.\n")
    write(root / "staging" / "imported.md", "# s\n\n## x\n\n- [rule] Always run the warp diagnostics. ^m-0000cccc\n")
    hits = _hits(tiergit(squad_repo, "recall", "warp", "--json"))
    assert {h["tier"] for h in hits} == {"archive", "staging"}
    assert "m-0000cccc" in [h["id"] for h in hits]


def test_bad_input_exits_2_without_touching_files(squad_repo):
    root = _store(squad_repo)
    for args, needle in [(["recall", "   "], "no words"), (["recall", "x", "--agent", "../x"], "invalid agent"),
                         (["recall", "x", "--tier", "nope"], "no tier named 'nope'"), (["recall", "x", "-n", "0"], "-n")]:
        proc = tiergit(squad_repo, *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert needle in proc.stderr and "Traceback" not in proc.stderr
    assert not (root / "logs" / "recalls.jsonl").exists()


def test_recall_log_edited_on_two_branches_merges_without_conflict(squad_repo):
    root = _store(squad_repo)
    assert "logs/*.jsonl merge=union" in (squad_repo / ".gitattributes").read_text()
    _hits(tiergit(squad_repo, "recall", "MSAL", "--json"))
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "memory and a first recall")
    git(squad_repo, "checkout", "-q", "-b", "other")
    _hits(tiergit(squad_repo, "recall", "docker layers", "--agent", "riker", "--json"))
    git(squad_repo, "commit", "-q", "-am", "recall on other")
    git(squad_repo, "checkout", "-q", "main")
    _hits(tiergit(squad_repo, "recall", "palette", "--agent", "picard", "--json"))
    git(squad_repo, "commit", "-q", "-am", "recall on main")
    merge = git(squad_repo, "merge", "-q", "--no-edit", "other", check=False)
    assert merge.returncode == 0, merge.stdout + merge.stderr
    text = (root / "logs" / "recalls.jsonl").read_text()
    assert "<<<<<<<" not in text
    queries = {json.loads(x)["query"] for x in text.splitlines()}
    assert queries == {"MSAL", "docker layers", "palette"}


def test_promote_candidate_listing_in_the_staging_file_is_not_recalled(repo):
    from conftest import tiergit as run
    from conftest import write as put

    assert run(repo, "init", "--preset", "openclaw", "--no-install").returncode == 0
    put(repo / ".tiergit/candidates.md",
        "# Dreams\n\n- [rule] Staged by hand: answer in British English.\n\n"
        "<!-- tiergit:candidates:begin -->\n## tiergit candidates (2026-01-01)\n\n"
        "- promote `m-50910232` 0.73 The owner wants replies in British English (score 0.73)\n"
        "<!-- tiergit:candidates:end -->\n")
    hits = json.loads(run(repo, "recall", "British English", "--json", "--no-log").stdout)["hits"]
    assert [h["line"] for h in hits] == [3]


def test_an_answer_in_its_own_paragraph_comes_with_its_question(squad_repo):
    _store(squad_repo)
    write(squad_repo / ".squad" / "memory" / "cold" / "worf.md",
          "# worf\n\n### Strict mode (2026-05-04)\n\nWhy does `.Count` throw under strict mode?\n\n"
          "A single object has no such property once Set-StrictMode is on: wrap it as @(...) first.\n\n"
          "Unrelated paragraph about the pager rota.\n")
    hits = _hits(tiergit(squad_repo, "recall", "why does .Count throw under strict mode?", "--json", "--full"))
    top = hits[0]
    assert top["path"].endswith("worf.md") and "Count" in top["raw"]
    assert "wrap it as @(...) first" in top["raw"]            # the answer, in the same hit
    assert "pager rota" not in top["raw"]                      # only the next paragraph joins


def test_a_name_written_as_code_outweighs_common_words(squad_repo):
    _store(squad_repo)
    write(squad_repo / ".squad" / "memory" / "cold" / "data.md",
          "# data\n\n### Search (2026-05-05)\n\n"
          "- Search results are returned as chunk documents with their text.\n"
          + "".join(f"- Search results for query {n} are returned in pages.\n" for n in range(12))
          + "- `chunk_text_t` is stored in Solr but not in the field list yet.\n")
    hits = _hits(tiergit(squad_repo, "recall", "is chunk_text_t returned in the search results?", "--json"))
    # the item holding the identifier whole ranks above one holding its parts and the words many items share
    assert "chunk_text_t" in hits[0]["text"]
