"""`tiergit measure`: legacy full load vs hot / hot+cold / hot+cold+wiki, noise, savings, hot budget."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import tiergit, write

from tiergit.features import measure
from tiergit.shell.store import Store
from tiergit.shell.tokens import count_text
from tiergit.shell import clock


def _tokens(text: str) -> int:
    return count_text(text, "cl100k_base").tokens


def test_columns_add_up_and_savings_are_against_legacy(squad_repo):
    root = squad_repo / ".squad" / "memory"
    hot = "# hot\n\n## Current task\n\n- Fix login.\n"
    cold = "# cold\n\n### Login bug (2026-05-01)\n\n- **Fix:** refresh the token on 401.\n"
    wiki = "# Auth\n\n- [decision] MSAL everywhere.\n"
    old_day = clock.today() - timedelta(days=90)
    legacy = (f"# Picard\n\n## Core Context\n\n- Captain.\n\n### Old work ({old_day})\n\n"
              + "".join(f"- step {i} of the old work\n" for i in range(200)))
    write(root / "hot" / "picard.md", hot)
    write(root / "cold" / "picard.md", cold)
    write(root / "wiki" / "auth.md", wiki)
    write(squad_repo / ".squad" / "agents" / "picard" / "history.md", legacy)
    write(root / "hot" / "riker.md", hot)  # no legacy file: baseline is every tier
    proc = tiergit(squad_repo, "measure", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["agent"]: r for r in json.loads(proc.stdout)["agents"]}
    p = rows["picard"]
    assert p["hot"]["tokens"] == _tokens(hot)
    assert p["hot_cold"]["tokens"] == _tokens(hot) + _tokens(cold)
    assert p["hot_cold_wiki"]["tokens"] == _tokens(hot) + _tokens(cold) + _tokens(wiki)
    assert p["legacy"]["tokens"] == _tokens(legacy) and p["baseline"] == "legacy"
    # the saving is the spawn's, as agents get it, never the hot file's alone
    assert p["spawn"]["tokens"] >= p["hot_in_spawn"] > 0
    assert p["saved_pct"] == round(100 * (1 - p["spawn"]["tokens"] / _tokens(legacy)), 1)
    assert p["hot_cold_saved_pct"] == round(100 * (1 - (_tokens(hot) + _tokens(cold)) / _tokens(legacy)), 1)
    assert 80 < p["old_noise_pct"] < 100  # the 90-day-old entry is nearly all of the file
    assert p["within_hot_budget"] and p["hot_budget"]["tokens"] == 1000
    r = rows["riker"]
    assert r["baseline"] == "every tier" and r["legacy"]["tokens"] == 0
    assert r["saved_pct"] == round(100 * (1 - r["spawn"]["tokens"] / (_tokens(hot) + _tokens(wiki))), 1)
    text = tiergit(squad_repo, "measure").stdout
    assert "picard" in text and "median saving per spawn" in text and "riker" in text
    assert "20-55" not in text and "20–55" not in text   # withdrawn upstream: never printed


def test_spawn_is_never_smaller_than_the_hot_it_carries(squad_repo):
    """A hot file with a long action log: the spawn carries its recent actions only, and the
    table's hot column is that part, so spawn >= hot on every row."""
    hot = "# hot\n\n## Current task\n\n- Fix login.\n\n## Recent actions\n\n" + "".join(
        f"- 2026-05-{1 + i % 28:02d} did step {i} of the login fix\n" for i in range(60))
    write(squad_repo / ".squad" / "memory" / "hot" / "picard.md", hot)
    write(squad_repo / ".squad" / "agents" / "picard" / "history.md", "# Picard\n\n" + "- old line\n" * 300)
    row = json.loads(tiergit(squad_repo, "measure", "--json").stdout)["agents"][0]
    assert row["spawn"]["tokens"] >= row["hot_in_spawn"] > 0
    assert row["saved_pct"] == round(100 * (1 - row["spawn"]["tokens"] / row["legacy"]["tokens"]), 1)


def test_hot_over_budget_is_flagged(squad_repo):
    write(squad_repo / ".squad" / "memory" / "hot" / "picard.md", "- a long hot note about things\n" * 400)
    store = Store.open(squad_repo)
    rows = measure.measure(store)
    assert not rows[0].within_hot_budget
    assert measure.summary(rows)["all_within_hot_budget"] is False
    assert "OVER" in measure.render(rows)


def test_openclaw_store_measures_one_row(repo):
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    hot, memory = "# Hot\n\n- now\n", "# Memory\n\n" + "- [rule] durable rule\n" * 50
    write(repo / ".tiergit" / "hot" / "MEMORY.md", hot)
    write(repo / "MEMORY.md", memory)
    data = json.loads(tiergit(repo, "measure", "--json").stdout)
    assert [r["agent"] for r in data["agents"]] == ["all"]
    row = data["agents"][0]
    # MEMORY.md is both a legacy file and an always-loaded tier in this preset
    assert sorted(row["hot"]["files"]) == [".tiergit/hot/MEMORY.md", "MEMORY.md"]
    assert row["hot"]["tokens"] == _tokens(hot) + _tokens(memory)
    assert row["legacy"]["files"] == ["MEMORY.md"]
    # ... so it is no "before": the saving is against every tier. The spawn's template costs more
    # than this tiny store's tiers, and measure says so (a negative saving) rather than hide it.
    assert row["baseline"] == "every tier"
    every = row["hot_cold_wiki"]["tokens"]
    assert row["saved_pct"] == round(100 * (1 - row["spawn"]["tokens"] / every), 1) < 0
    assert row["hot_cold_saved_pct"] is not None and row["hot_cold_saved_pct"] >= 0


def test_no_store_agents_says_so(squad_repo):
    proc = tiergit(squad_repo, "measure")
    assert proc.returncode == 0 and "nothing to measure" in proc.stdout
