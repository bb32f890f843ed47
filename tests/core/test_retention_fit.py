"""`fit_cuts`: the oldest entries leave an over-budget file, never the one holding `keep`
(session end passes the new entry's marker so the session it just wrote is never archived)."""
from __future__ import annotations

from pathlib import Path

from tiergit.core import cuts
from tiergit.features import retention
from tiergit.shell import config

KEEP = "<!-- s-keepme01 -->"


def _cold(entries: int, keep_in_oldest: bool) -> str:
    out = ["# Cold memory · picard\n"]
    for i in range(entries):
        marker = f"{KEEP}\n" if keep_in_oldest and i == 0 else ""
        out.append(f"\n### 20{10 + i}-01-01 · session {i}\n{marker}- [rule] rule number {i} holds\n")
    return "".join(out)


def _cfg(tmp_path: Path):
    text = "version: 1\npreset: squad\ntiers:\n  cold: {budget: {lines: 12}}\n"
    return config.parse_text(text, tmp_path / ".tiergit.yml", tmp_path)


def test_the_oldest_entries_go_first_until_under_warn(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path)
    text = _cold(6, keep_in_oldest=False)
    new, chosen = retention.fit_cuts(cfg, ".squad/memory/cold/picard.md", text, cfg.tiers["cold"])
    assert chosen and [c.day.year for c in chosen] == sorted(c.day.year for c in chosen)
    assert "session 0" not in new and "session 5" in new
    assert len(new.splitlines()) <= cfg.tiers["cold"].budget["lines"].max


def test_the_newest_entries_go_only_while_the_file_is_over_max(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path)            # lines: max 12, warn 9.6: three entries and the title make 10
    new, _ = retention.fit_cuts(cfg, ".squad/memory/cold/picard.md", _cold(6, False), cfg.tiers["cold"])
    assert [i for i in range(6) if f"session {i}\n" in new] == [3, 4, 5]       # keep_last beats warn
    over = _cold(6, False).replace("holds\n", "holds\n- and more\n")         # 4 lines an entry: 13
    new, _ = retention.fit_cuts(cfg, ".squad/memory/cold/picard.md", over, cfg.tiers["cold"])
    assert [i for i in range(6) if f"session {i}\n" in new] == [4, 5]          # max beats keep_last
    assert len(new.splitlines()) <= 12


def test_the_entry_holding_keep_is_never_cut(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path)
    text = _cold(6, keep_in_oldest=True)
    new, chosen = retention.fit_cuts(cfg, ".squad/memory/cold/picard.md", text, cfg.tiers["cold"], keep=KEEP)
    assert chosen, "the file is over budget: something is cut"
    assert KEEP in new and "rule number 0 holds" in new
    lines = text.splitlines(keepends=True)
    assert all(KEEP not in cuts.chunk(lines, c) for c in chosen)
