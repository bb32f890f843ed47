"""Task-aware spawn: `context` adds the items relevant to the task, whole, within a budget; nothing when unrelated."""
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


def test_task_brings_relevant_items_whole_with_id_and_path(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--task", "rotate signing keys for the gateway")
    prompt, known = out["prompt"], out["knowledge"]
    assert "### Relevant knowledge" in prompt
    paths = {i["path"] for i in known["items"]}
    assert ".squad/memory/cold/riker.md" in paths and ".squad/memory/wiki/gateway.md" in paths
    # whole items: the nested sub-item comes along, and each item names its id and path:line
    assert "rotation window is 15 minutes" in prompt
    fix = next(i for i in known["items"] if i["path"].endswith("cold/riker.md") and i["line"] == 5)
    assert f"**{fix['id']}** · .squad/memory/cold/riker.md:5" in prompt
    # unrelated items stay out
    assert "palette" not in prompt and "pager rota" not in prompt
    assert known["tokens"] <= known["budget"] == 1000


def test_unrelated_task_brings_nothing_but_the_wiki_index(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--task", "bake a chocolate cake")
    assert out["knowledge"]["items"] == []
    assert "### Relevant knowledge" not in out["prompt"]
    assert any("nothing in cold, wiki or archive is relevant" in n for n in out["notes"])
    # the index: one line per topic, even though no topic was selected
    index = out["knowledge"]["wiki_index"]
    assert index == ["- `deploy` — Deploy (.squad/memory/wiki/deploy.md)",
                     "- `gateway` — Gateway (.squad/memory/wiki/gateway.md)"]
    assert "\n".join(index) in out["prompt"] and "### Wiki\n" not in out["prompt"]


def test_archive_items_come_when_relevant(squad_repo):
    _store(squad_repo)
    out = _context(squad_repo, "--task", "who owns the pager rota swaps")
    assert [i["tier"] for i in out["knowledge"]["items"]] == ["archive"]
    assert "swaps need a day's notice" in out["prompt"]


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
