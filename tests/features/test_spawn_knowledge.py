"""Task-aware spawn: `context` adds the items the task will need (relevance, recency, hot's names), packed within a budget."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import tiergit, write

HOT = ("# riker hot\n\n## Current task\n\nRotate the gateway signing keys.\n\n## Active decisions\n"
       "<!-- one line each: what was decided and why; kept verbatim in cold -->\n\n## Last actions\n"
       "<!-- the 3–5 most recent, newest first -->\n")
COLD = """# riker

### Gateway key rotation (2026-05-01)

- **Fix:** the GatewaySigner.RotateKeys job must run before the cache flush,
  otherwise old tokens validate for another hour.
  - nested detail: rotation window is 15 minutes
- [rule] Never rotate signing keys on a Friday.

### Dashboard colours (2026-05-03)

- Switched the dashboard palette to the colour-blind safe set.
"""
ARCHIVE = """# riker (archive)

### Pager duty rota (2024-01-02)

- The pager rota lives in the ops calendar; swaps need a day's notice.
"""
WIKI = {"gateway": "# Gateway\n\n- [decision] Signing keys live in the vault, rotated monthly.\n",
        "deploy": "# Deploy\n\n- [rule] Blue green slots for every release.\n"}


def _store(repo: Path, config_extra: str = "") -> Path:
    root = repo / ".squad" / "memory"
    write(root / "hot" / "riker.md", HOT)
    write(root / "cold" / "riker.md", COLD)
    write(root / "archive" / "2024-01" / "riker.md", ARCHIVE)
    for topic, text in WIKI.items():
        write(root / "wiki" / f"{topic}.md", text)
    if config_extra:
        cfg = repo / ".tiergit.yml"
        cfg.write_text(cfg.read_text() + config_extra)
    return root


def _context(repo: Path, *args: str) -> dict:
    proc = tiergit(repo, "context", "--agent", "riker", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_task_brings_relevant_items_first_under_their_entry(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--task", "rotate signing keys for the gateway")
    prompt, known = out["prompt"], out["knowledge"]
    assert "### Relevant knowledge" in prompt
    paths = {i["path"] for i in known["items"]}
    assert ".squad/memory/cold/riker.md" in paths and ".squad/memory/wiki/gateway.md" in paths
    # a short item comes whole (its nested sub-item too), under its entry with path:line
    assert "rotation window is 15 minutes" in prompt
    fix = next(i for i in known["items"] if i["path"].endswith("cold/riker.md") and i["line"] == 5)
    assert f"**Gateway key rotation (2026-05-01)** · .squad/memory/cold/riker.md:{fix['line']}" in prompt
    # relevant items come first; the agent's other items fill the rest of the budget, newest first
    assert prompt.index("GatewaySigner.RotateKeys") < prompt.index("palette") < prompt.index("pager rota")
    assert known["tokens"] <= known["budget"] == 1000
    assert not any("matched little" in n for n in out["notes"])


def test_unrelated_task_brings_the_newest_items_and_says_so(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--task", "bake a chocolate cake")
    prompt = out["prompt"]
    # no all-or-nothing threshold: the agent's newest entry comes, and the block says the task matched little
    assert "palette" in prompt and "matched little" in prompt
    assert any("matched little" in n for n in out["notes"])
    assert max(prompt.index("palette"), prompt.index("GatewaySigner")) < prompt.index("pager rota")   # newer first
    index = out["knowledge"]["wiki_index"]
    assert index == ["- `deploy` — Deploy (.squad/memory/wiki/deploy.md)",
                     "- `gateway` — Gateway (.squad/memory/wiki/gateway.md)"]
    assert "\n".join(index) in prompt and "### Wiki\n" not in prompt


def test_archive_items_come_when_relevant(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--task", "who owns the pager rota swaps")
    first = out["knowledge"]["items"][0]
    assert first["tier"] == "archive" and "swaps need a day's notice" in out["prompt"]


def test_hot_blocker_is_not_repeated_and_its_names_pull_items(squad_repo):
    _store(squad_repo)
    hot = squad_repo / ".squad" / "memory" / "hot" / "riker.md"
    hot.write_text(HOT.replace("Rotate the gateway signing keys.", "Prepare the quarterly review.")
                   + "\n## Blockers\n\n- [rule] Never rotate signing keys on a Friday.\n"
                   + "\n## Last actions\n\n- Read `GatewaySigner.RotateKeys` before the review.\n")
    out = _context(squad_repo, "--task", "prepare the quarterly review")
    prompt = out["prompt"]
    assert prompt.count("Never rotate signing keys on a Friday") == 1      # hot shows it: not again as knowledge
    first = out["knowledge"]["items"][0]
    assert first["line"] == 5 and "before the cache flush" in prompt    # named by hot, though not by the task


def test_task_is_not_printed_twice(squad_repo):
    _store(squad_repo)
    prompt = tiergit(squad_repo, "context", "--agent", "riker").stdout
    assert prompt.count("Rotate the gateway signing keys.") == 1
    assert "## Current task" not in prompt and "## Task" in prompt


def test_long_item_is_cut_to_its_best_sentences(squad_repo):
    _store(squad_repo)
    cold = squad_repo / ".squad" / "memory" / "cold" / "riker.md"
    filler = " ".join(f"Sentence {n} is about nothing in particular." for n in range(40))
    cold.write_text(cold.read_text() + f"\n### Long notes (2026-05-04)\n\n- {filler} The HSM quorum needs three "
                    f"officers present. {filler}\n")
    out = _context(squad_repo, "--task", "how many officers does the HSM quorum need")
    assert "The HSM quorum needs three officers present." in out["prompt"]
    assert "Sentence 39 is about" not in out["prompt"] and "…" in out["prompt"]


def test_include_cold_note_does_not_claim_nothing_is_relevant(squad_repo):
    _store(squad_repo)
    proc = tiergit(squad_repo, "context", "--agent", "riker", "--include-cold", "--task", "rotate signing keys")
    assert proc.returncode == 0, proc.stderr
    assert "is relevant to the task" not in proc.stderr
    assert proc.stdout.count("rotation window is 15 minutes") == 1     # cold whole; its items not again


def test_default_spawn_drops_template_noise(squad_repo):
    _store(squad_repo)
    prompt = tiergit(squad_repo, "context", "--agent", "riker").stdout
    assert "(not given" not in prompt and "## WHY" not in prompt and "## Success criteria" not in prompt
    assert "one line each" not in prompt and "## Last actions" not in prompt   # empty hot sections go
    assert "<!-- .squad/memory/hot/riker.md -->" in prompt                      # provenance stays
    # the hot file's Current task is the task, so its knowledge comes by default
    assert "GatewaySigner.RotateKeys" in prompt


def test_budget_caps_items_and_notes_the_rest(squad_repo):
    _store(squad_repo, "spawn: {knowledge_tokens: 40}\n")
    out = _context(squad_repo, "--task", "rotate signing keys for the gateway")
    known = out["knowledge"]
    assert known["budget"] == 40 and 0 < known["tokens"] <= 40 and known["dropped"] >= 1
    assert any("over the 40-token budget" in n for n in out["notes"])


def test_for_situation_composes_without_duplicates(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--for", "resume", "--task", "rotate signing keys for the gateway")
    # cold is loaded whole: its items are not repeated in the knowledge block
    assert "### Cold" in out["prompt"]
    assert all(not i["path"].endswith("cold/riker.md") for i in out["knowledge"]["items"])
    assert out["prompt"].count("rotation window is 15 minutes") == 1
    assert any(i["path"].endswith("wiki/gateway.md") for i in out["knowledge"]["items"])


def test_bad_spawn_setting_is_refused_with_the_key(squad_repo):
    _store(squad_repo, "spawn: {knowledge_tokens: lots}\n")
    proc = tiergit(squad_repo, "context", "--agent", "riker", "--task", "keys")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "spawn.knowledge_tokens" in proc.stderr and "hint:" in proc.stderr


def test_measure_reports_the_task_aware_spawn_beside_hot_and_legacy(squad_repo):
    _store(squad_repo)
    write(squad_repo / ".squad" / "agents" / "riker" / "history.md", "# riker\n\n" + "- old line\n" * 300)
    proc = tiergit(squad_repo, "measure", "--json")
    assert proc.returncode == 0, proc.stderr
    row = next(a for a in json.loads(proc.stdout)["agents"] if a["agent"] == "riker")
    assert row["spawn_task"] == "Rotate the gateway signing keys."
    assert row["hot"]["tokens"] < row["spawn"]["tokens"] < row["legacy"]["tokens"]
    text = tiergit(squad_repo, "measure").stdout
    assert " spawn " in text.splitlines()[2] and str(row["spawn"]["tokens"]) in text


def test_prompt_ends_with_the_topics_what_was_left_out_and_when_to_recall(squad_repo):
    _store(squad_repo, "spawn: {knowledge_tokens: 40}\n")
    out = _context(squad_repo, "--task", "rotate signing keys for the gateway")
    prompt = out["prompt"]
    closing = prompt[prompt.rindex("## Recall"):]
    assert closing.rstrip().splitlines()[-1].startswith("Recall before you change a file the memory mentions")
    assert "`gateway` — Gateway" in closing and "`deploy` — Deploy" in closing
    shown = {i["entry"] for i in out["knowledge"]["items"]}
    more = closing.split("More in memory, left out by the budget: ")[1].split(".\n")[0].split("; ")
    assert more and not set(more) & shown       # entries the budget left out, none of those shown
    assert "Dashboard colours (2026-05-03)" in more or "Pager duty rota (2024-01-02)" in more


def test_wiki_index_is_capped_with_the_tasks_topics_first(squad_repo):
    root = _store(squad_repo)
    for n in range(25):
        write(root / "wiki" / f"topic{n:02d}.md", f"# Topic {n}\n\n- [fact] Filler fact number {n}.\n")
    out = _context(squad_repo, "--task", "rotate signing keys for the gateway")
    index = out["knowledge"]["wiki_index"]
    assert len(index) == 21 and index[-1] == "- … and 7 more topics (`tiergit recall` searches them all)"
    assert index[0].startswith("- `gateway`")          # the topic the task matched comes first


def test_the_closing_lists_names_memory_keeps_using_that_the_budget_left_out(squad_repo):
    """A name three sessions used is worth knowing about even when its items do not fit: the closing lists it
    (as written) for `recall`, and never a name the prompt already shows or one written only once."""
    root = _store(squad_repo, "spawn: {knowledge_tokens: 60}\n")
    entries = "".join(f"### Session {n} (2026-05-{10 + n:02d})\n\n- Tuned `ReplicaPool.warmup` for shard {n}; "
                      f"the InvoiceLedger export ran {n} times.\n- Filler line {n} about the weather.\n\n"
                      for n in range(1, 4))
    write(root / "cold" / "riker.md", COLD + "\n" + entries + "### Once (2026-05-20)\n\n- OneOffHelper ran.\n")
    prompt = _context(squad_repo, "--task", "rotate signing keys for the gateway")["prompt"]
    closing = prompt.split("## Recall", 1)[1]
    listed = closing.split("Names your memory keeps using", 1)[1].split("\n", 1)[0]
    assert "`ReplicaPool.warmup`" in listed and "`InvoiceLedger`" in listed
    assert "OneOffHelper" not in listed
    shown = prompt.split("## Recall", 1)[0]
    assert all(f"`{name}`" not in listed for name in ("GatewaySigner.RotateKeys",) if name in shown)


LEGACY_OLD = """# Riker

## Learnings

### 2026-05-01 — Gateway cache

- The gateway cache flush runs nightly from the OpsScheduler.FlushJob task.
"""
# a newer session prepends its entry, mistyping the year: the dates alone say it is the oldest (its line
# adds as many long words and names as the older one, so only its age can set it first)
LEGACY_NEW = LEGACY_OLD.replace("## Learnings\n", """## Learnings

### 2025-05-02 — Ledger export

- The ledger exporter moved to the ReportWriter.ExportCsv task.
""")


def test_imported_history_is_dated_by_the_commits_that_wrote_it(squad_repo):
    """Items imported from a legacy history.md are ordered by when the repository's history added them,
    not by the dates written in them: the newest session's notes come first."""
    from conftest import IDENTITY, git

    legacy = squad_repo / ".squad" / "agents" / "riker" / "history.md"
    for text, stamp in ((LEGACY_OLD, "2026-05-01T10:00:00Z"), (LEGACY_NEW, "2026-05-02T10:00:00Z")):
        write(legacy, text)
        git(squad_repo, "add", str(legacy))
        git(squad_repo, "commit", "-q", "--no-verify", "-m", "history",
            env={**IDENTITY, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})
    assert tiergit(squad_repo, "import", "squad", "--apply").returncode == 0
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "spawn: {knowledge_tokens: 60}\n")    # room for one entry
    prompt = _context(squad_repo, "--task", "bake a chocolate cake")["prompt"]
    assert "ReportWriter.ExportCsv" in prompt and "OpsScheduler.FlushJob" not in prompt
    cached = list((squad_repo / ".git" / "tiergit" / "line-times-v1").glob("*.json"))
    assert len(cached) == 1                   # the file's version dated once, then read from the cache
    assert _context(squad_repo, "--task", "bake a chocolate cake")["prompt"] == prompt


def test_without_history_the_item_dates_order_the_import(squad_repo):
    """The same history never committed: nothing to date it by, so the written dates decide."""
    write(squad_repo / ".squad" / "agents" / "riker" / "history.md", LEGACY_NEW)
    assert tiergit(squad_repo, "import", "squad", "--apply").returncode == 0
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "spawn: {knowledge_tokens: 60}\n")
    prompt = _context(squad_repo, "--task", "bake a chocolate cake")["prompt"]
    assert "OpsScheduler.FlushJob" in prompt and "ReportWriter.ExportCsv" not in prompt


def test_long_items_go_in_by_their_best_segments_and_are_named_when_left_out(squad_repo):
    """A long item competes segment by segment: its segment holding the task's words comes (cut, marked
    …), not its filler; another long item the budget leaves out is still named in the closing."""
    root = _store(squad_repo, "spawn: {knowledge_tokens: 120}\n")
    filler = " ".join(f"Step {n} of the runbook is routine." for n in range(30))
    cold = root / "cold" / "riker.md"
    cold.write_text(cold.read_text()
                    + f"\n### Vault runbook (2026-05-05)\n\n- {filler} The VaultUnseal.Quorum check needs three "
                    f"key holders. {filler}\n"
                    + f"\n### Archive runbook (2026-05-06)\n\n- {filler.replace('runbook', 'archive plan')}\n")
    out = _context(squad_repo, "--task", "how many key holders does the VaultUnseal quorum need")
    prompt = out["prompt"]
    assert "The VaultUnseal.Quorum check needs three key holders." in prompt
    assert "Step 29 of the runbook" not in prompt
    closing = prompt[prompt.rindex("## Recall"):]
    assert "Archive runbook (2026-05-06)" in closing
