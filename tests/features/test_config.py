"""`.tiergit.yml`: presets, overrides, budgets, and errors that name file, key and line (exit 2)."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, tiergit

from tiergit.core.config import GateSettings, Limit
from tiergit.errors import TiergitError
from tiergit.shell import config


def load_text(repo: Path, text: str) -> config.Config:
    (repo / ".tiergit.yml").write_text(text)
    return config.load(repo)


def test_squad_preset(repo):
    cfg = load_text(repo, "version: 1\npreset: squad\n")
    assert cfg.root == ".squad/memory" and cfg.tokenizer == "cl100k_base"
    assert list(cfg.tiers) == ["hot", "cold", "wiki", "decisions", "governed"]   # Squad's own, read in place
    assert cfg.tiers["decisions"].in_place and cfg.tiers["governed"].in_place and not cfg.tiers["cold"].in_place
    hot, cold, wiki = cfg.tiers["hot"], cfg.tiers["cold"], cfg.tiers["wiki"]
    assert (hot.load, hot.next, hot.budget["bytes"].max, hot.budget["tokens"].max) == ("always", "cold", 4096, 1000)
    assert cold.ttl_days == 30 and cold.next == "wiki" and wiki.reviewed and wiki.durable
    assert cfg.tier_for(".squad/memory/hot/picard.md") == (hot, {"agent": "picard"})
    assert cfg.tier_for(".squad/memory/wiki/auth.md")[1] == {"topic": "auth"}
    assert cfg.tier_for(".squad/memory/hot/Picard.md") is None
    assert cfg.tier_for("docs/hot/picard.md") is None
    assert cfg.limits["max_file_bytes"] == 1048576   # a real decisions.md is 856 KB


def test_openclaw_preset(repo):
    cfg = load_text(repo, "version: 1\npreset: openclaw\n")
    assert cfg.root == ".tiergit" and list(cfg.tiers) == ["hot", "warm", "cold", "daily"]
    # cold is MEMORY.md at the repository root (a leading "/" in the preset).
    assert cfg.tier_for("MEMORY.md")[0].name == "cold"
    assert cfg.tiers["cold"].budget["lines"] == Limit(200, 300)
    # Daily notes where OpenClaw writes them, with its per-session and per-topic names; top level only.
    for name in ("2026-05-01.md", "2026-05-01-1432.md", "2026-05-01-zebra-migration.md"):
        assert cfg.tier_for(f"memory/{name}") == (cfg.tiers["daily"], {"date": "2026-05-01"})
    for other in ("memory/notes.md", "memory/dreaming/light/2026-05-01.md", "memory/archive/2026-05/2026-05-01.md"):
        assert cfg.tier_for(other) is None
    assert cfg.tier_for(".tiergit/hot/MEMORY.md")[0].name == "hot"
    assert cfg.tiers["daily"].delete_after_days == 90 and cfg.staging == "candidates.md"


def test_overrides_merge_into_the_preset(repo):
    cfg = load_text(repo, (
        "version: 1\npreset: squad\nroot: team/memory\n"
        "tiers:\n"
        "  hot: {budget: {bytes: 2048, lines: {warn: 20, max: 30}}}\n"
        "  cold: {next: null}\n"
        "  wiki: null\n"
        "  daily: {path: 'daily/{date}.md', ttl_days: 7}\n"
        "gate: {min_recalls: 3}\nlimits: {max_file_bytes: 1000}\n"
    ))
    assert cfg.root == "team/memory" and list(cfg.tiers) == ["hot", "cold", "decisions", "governed", "daily"]
    hot = cfg.tiers["hot"]
    # A bare number warns at 80 %; a mapping sets both levels; unmentioned keys stay.
    assert hot.budget["bytes"] == Limit(2048 * 0.8, 2048)
    assert hot.budget["lines"] == Limit(20, 30)
    assert hot.budget["tokens"].max == 1000 and hot.load == "always"
    assert cfg.gate == GateSettings(min_score=0.70, min_recalls=3, min_age_days=30)
    assert cfg.limits["max_file_bytes"] == 1000
    assert cfg.tier_for("team/memory/hot/juno.md")[0] is hot


def test_custom_preset_needs_everything(repo):
    with pytest.raises(TiergitError, match="root: must be a non-empty path"):
        load_text(repo, "version: 1\npreset: custom\n")
    cfg = load_text(repo, "version: 1\npreset: custom\nroot: mem\ntiers:\n  notes: {path: 'notes.md'}\n")
    assert list(cfg.tiers) == ["notes"] and cfg.tiers["notes"].budget == {}


def test_init_writes_a_config_that_loads(repo):
    for preset in ("squad", "openclaw", "custom"):
        cfg = config.parse_text(config.preset_text(preset), repo / ".tiergit.yml", repo)
        assert cfg.tiers


@pytest.mark.parametrize("text,expected", [
    ("version: 2\n", ".tiergit.yml:1: version: unsupported version 2"),
    ("version: 1\npreset: foo\n", ".tiergit.yml:2: preset: unknown preset 'foo'"),
    ("version: 1\ncolour: blue\n", ".tiergit.yml:2: colour: unknown key"),
    ("version: 1\ntiers:\n  hot:\n    budget: {bytes: -3}\n", ".tiergit.yml:4: tiers.hot.budget.bytes: must be positive"),
    ("version: 1\ntiers:\n  hot:\n    budget: {bytez: 3}\n", ".tiergit.yml:4: tiers.hot.budget.bytez: unknown budget metric"),
    ("version: 1\ntiers:\n  hot:\n    budget:\n      lines: {warn: 50, max: 40}\n",
     ".tiergit.yml:5: tiers.hot.budget.lines: warn (50) is above max (40)"),
    ("version: 1\ntiers:\n  hot: {path: 'hot/{agnt}.md'}\n", ".tiergit.yml:3: tiers.hot.path: unknown placeholder {agnt}"),
    ("version: 1\ntiers:\n  hot: {load: sometimes}\n", ".tiergit.yml:3: tiers.hot.load: unknown load policy"),
    ("version: 1\ntiers:\n  hot: {next: attic}\n", ".tiergit.yml:3: tiers.hot.next: names no tier ('attic')"),
    ("version: 1\ntiers:\n  hot: {budget: {bytes: 100}}\n  wiki: null\n",
     ".tiergit.yml:2: tiers.cold.next: names no tier ('wiki')"),
    ("version: 1\ntiers:\n  hot: {colour: red}\n", ".tiergit.yml:3: tiers.hot.colour: unknown tier key"),
    ("version: 1\nroot: ../outside\n", ".tiergit.yml:2: root: path '../outside' escapes the repository"),
    ("version: 1\ntiers:\n  hot: {path: '../../x/{agent}.md'}\n", ".tiergit.yml:3: tiers.hot.path: path"),
    ("version: 1\nlimits: {max_file_bytes: 0}\n", ".tiergit.yml:2: limits.max_file_bytes: must be a positive"),
    ("version: 1\nlimits: {max_fil_bytes: 10}\n", ".tiergit.yml:2: limits.max_fil_bytes: unknown limit"),
    ("version: 1\ngate: 3\n", ".tiergit.yml:2: gate: must be a mapping"),
    ("version: 1\ntokenizer: 'cl100k base'\n", ".tiergit.yml:2: tokenizer: invalid tokenizer"),
    ("version: 1\ntiers: [\n", ".tiergit.yml:3: invalid YAML"),
    ("- a\n- b\n", ".tiergit.yml: the file must be a YAML mapping"),
])
def test_bad_config_names_file_key_and_line_exit_2(repo, text, expected):
    (repo / ".tiergit.yml").write_text(text)
    before = git(repo, "status", "--porcelain", "--ignored").stdout
    proc = tiergit(repo, "status")
    assert proc.returncode == 2
    assert proc.stderr.startswith("tiergit: error: " + expected), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert git(repo, "status", "--porcelain", "--ignored").stdout == before  # nothing written
    with pytest.raises(TiergitError):
        config.load(repo)


def test_root_through_a_symlink_out_of_the_repo_is_refused(repo, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (repo / "linked").symlink_to(outside)
    (repo / ".tiergit.yml").write_text("version: 1\nroot: linked/memory\n")
    proc = tiergit(repo, "check", "--all")
    assert proc.returncode == 2
    assert ".tiergit.yml:2: root: path 'linked/memory' resolves outside the work tree" in proc.stderr


def test_yaml_alias_bomb_is_refused_fast(repo):
    bomb = "version: 1\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9))
    (repo / ".tiergit.yml").write_text(bomb)
    before = git(repo, "status", "--porcelain").stdout
    proc = tiergit(repo, "status")
    assert proc.returncode == 2
    assert proc.stderr.startswith("tiergit: error: .tiergit.yml:3: YAML aliases are not allowed")
    assert "hint:" in proc.stderr and "Traceback" not in proc.stderr
    assert git(repo, "status", "--porcelain").stdout == before


def test_missing_and_oversized_and_non_utf8_config(repo):
    proc = tiergit(repo, "status")
    assert proc.returncode == 2 and ".tiergit.yml: not found" in proc.stderr and "tiergit init" in proc.stderr
    (repo / ".tiergit.yml").write_bytes(b"version: 1\nroot: \xff\n")
    proc = tiergit(repo, "status")
    assert proc.returncode == 2 and ".tiergit.yml: not valid UTF-8" in proc.stderr
    (repo / ".tiergit.yml").write_text("version: 1\n" + "#" * 300_000 + "\n")
    proc = tiergit(repo, "status")
    assert proc.returncode == 2 and "too large for a config file" in proc.stderr


@pytest.mark.parametrize("agent", ["../x", "..", "x/y", "/etc/passwd", "Picard", "", ".hidden", "a..b", "x\\y"])
def test_agent_and_topic_must_be_slugs(repo, agent):
    cfg = load_text(repo, "version: 1\npreset: squad\n")
    with pytest.raises(TiergitError) as info:
        cfg.tier_file("hot", agent=agent)
    assert "invalid agent name" in info.value.message and info.value.hint
    with pytest.raises(TiergitError, match="invalid topic name"):
        cfg.tier_file("wiki", topic=agent)


def test_tier_file_for_good_slugs_stays_inside(repo):
    cfg = load_text(repo, "version: 1\npreset: squad\n")
    path = cfg.tier_file("hot", agent="picard")
    assert path == repo / ".squad/memory/hot/picard.md"
    assert cfg.tier_file("wiki", topic="auth-v2.1") == repo / ".squad/memory/wiki/auth-v2.1.md"
    with pytest.raises(TiergitError, match="no tier named 'attic'"):
        cfg.tier_file("attic", agent="picard")
    with pytest.raises(TiergitError, match="needs a value for {agent}"):
        cfg.tier_file("hot")


@pytest.mark.parametrize("command", [
    ["session", "start", "--agent", "../x", "--task", "t"],
    ["session", "end", "--agent", "../x"],
    ["context", "--agent", "../x"],
    ["instructions", "--agent", "../x"],
    ["recall", "cache", "--agent", "../x"],
])
def test_agent_path_on_the_command_line_is_refused(squad_repo, command):
    before = git(squad_repo, "status", "--porcelain", "--ignored").stdout
    proc = tiergit(squad_repo, *command)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith("tiergit: error: invalid agent name '../x': must match [a-z0-9][a-z0-9._-]*")
    assert "hint:" in proc.stderr and "Traceback" not in proc.stderr
    assert git(squad_repo, "status", "--porcelain", "--ignored").stdout == before
    assert not (squad_repo / ".squad/memory/x.md").exists() and not (squad_repo / ".squad/x.md").exists()
