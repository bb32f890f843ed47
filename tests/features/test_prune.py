"""The prune path of a reviewed tier over budget: `audit --apply` on the promotion branch
proposes the oldest or deadest MEMORY.md items for the archive, a reviewer keeps what they
restore, `review sync` records both, and the day's note gets the review line."""
from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

from conftest import git, ok, tiergit, write

from tiergit.core import parse
from tiergit.features.budget import line_count
from tiergit.features.promotion.prune import fit_cuts, prune_events
from tiergit.core.cuts import cut_lines
from tiergit.shell import config, logs
from tiergit.shell.store import Store
from tiergit.shell import clock

TODAY = date(2026, 6, 30)


def memory_md(entries: int, filler: int = 0) -> str:
    """A MEMORY.md of dated entries (4 lines each), oldest first, after a pinned rules section."""
    parts = ["# Memory\n", "## Rules\n"] + [f"- [rule] Keep rule {i} in mind\n" for i in range(filler)] + ["\n"]
    for i in range(entries):
        day = TODAY - timedelta(days=entries - i)
        parts.append(f"## {day.isoformat()} work {i}\n\n- [fact] fact number {i} about the build\n\n")
    return "".join(parts)


def _openclaw(tmp_path: Path) -> config.Config:
    return config.parse_text("version: 1\npreset: openclaw\n", tmp_path / ".tiergit.yml", tmp_path)


def _cut(tmp_path: Path, text: str):
    tier = _openclaw(tmp_path).tiers["cold"]
    doc = parse.parse(text, "MEMORY.md")
    return fit_cuts(doc, text, tier, "cl100k_base", [], lambda: {}, TODAY)


def _sized(lines: int) -> str:
    text = memory_md(80, filler=0)
    text_lines = text.splitlines(keepends=True)
    while len(text_lines) < lines:
        text_lines.insert(3, "- [rule] padding rule\n")
    return "".join(text_lines[:lines])


def test_at_max_nothing_is_cut_one_above_it_is_cut_back_under_warn(tmp_path):
    assert _cut(tmp_path, _sized(300)) == []              # 300 lines: a warning, not a cut
    text = _sized(301)
    cuts = _cut(tmp_path, text)
    assert cuts, "301 lines is over the max: the prune path must propose a cut"
    left = cut_lines(text, [(s, e) for s, e, *_ in cuts])
    assert line_count(left) < 200                          # back to healthy in one reviewed cut


def test_oldest_entries_go_first_and_the_newest_stay(tmp_path):
    text = memory_md(80, filler=4)
    cuts = _cut(tmp_path, text)
    days = [day for _, _, day, _, _ in cuts]
    assert days == sorted(days) and all("oldest entry" in reason for *_, reason, _ in cuts)
    left = cut_lines(text, [(s, e) for s, e, *_ in cuts])
    assert "work 79" in left and "work 0\n" not in left and "Keep rule 3 in mind" in left


def test_undated_items_go_by_blame_date_only_when_entries_are_not_enough(tmp_path):
    text = "# Memory\n\n## Rules\n\n" + "".join(f"- [rule] rule {i}\n" for i in range(320))
    tier = _openclaw(tmp_path).tiers["cold"]
    doc = parse.parse(text, "MEMORY.md")
    blame = {n: TODAY - timedelta(days=1000 - n) for n in range(1, 330)}
    blame[300] = TODAY - timedelta(days=5000)              # one line is much older than the rest
    cuts = fit_cuts(doc, text, tier, "cl100k_base", [], lambda: blame, TODAY)
    assert cuts[0][0] == 300 and all("oldest item" in c[3] for c in cuts)
    assert line_count(cut_lines(text, [(s, e) for s, e, *_ in cuts])) < 200
    events = prune_events(doc, "MEMORY.md", [(s, e) for s, e, *_ in cuts])
    assert len(events) == len(cuts) and {e["action"] for e in events} == {"prune-proposed"}


def _day_note(repo: Path, store: Store) -> Path:
    tier = store.config.tiers["daily"]
    return repo / store.config.repo_path(tier.path.replace("{date}", clock.today().isoformat()))


def test_openclaw_day_over_budget_to_reviewed_cut_to_within_budget(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    write(repo / "MEMORY.md", memory_md(90, filler=5))     # 5 + 90*4 + ~4 lines: over 300
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory", env={"TIERGIT": "0"})
    check = tiergit(repo, "check")
    assert check.returncode == 1 and "`tiergit audit --apply` on the promotion branch" in check.stdout

    git(repo, "switch", "-q", "-c", "tiergit/promote")
    body = repo.parent / "body.md"
    run = ok(tiergit(repo, "audit", "--apply", "--pr-body", str(body)))
    assert "cut from a reviewed tier" in run.stdout
    assert "## Proposed for the archive (audit)" in body.read_text()
    memory = (repo / "MEMORY.md").read_text()
    assert line_count(memory) < 200 and "work 89" in memory and "work 0\n" not in memory
    # The reviewer keeps the oldest cut entry: restores its lines in the PR, then merges.
    restored = f"## {(TODAY - timedelta(days=90)).isoformat()} work 0\n\n- [fact] fact number 0 about the build\n"
    assert restored not in memory
    write(repo / "MEMORY.md", memory.rstrip("\n") + "\n\n" + restored)
    git(repo, "add", "-A")
    ok(git(repo, "commit", "-q", "-m", "tiergit: prune MEMORY.md (reviewed)"))
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge the promotion PR", "tiergit/promote")

    synced = json.loads(ok(tiergit(repo, "review", "sync", "--json")).stdout)
    outcomes = {e["action"] for e in synced["events"]}
    assert outcomes == {"pruned", "prune-kept"}
    kept_events = [e for e in synced["events"] if e["action"] == "prune-kept"]
    assert len(kept_events) == 1 and "fact number 0 " in kept_events[0]["text"] + " "
    assert ok(tiergit(repo, "check")).returncode == 0
    store = Store.open(repo)
    last = _day_note(repo, store).read_text().rstrip("\n").splitlines()[-1]
    assert "] Dream review: accepted 0, rejected 0; pruned " in last and last.endswith("kept 1")
    assert any(e.get("action") == "prune-proposed" for e in logs.read(store, logs.REVIEWS))


def test_never_recalled_items_go_before_recalled_ones(tmp_path):
    text = "# Memory\n\n## Rules\n\n" + "".join(f"- [rule] rule {i}\n" for i in range(320))
    tier = _openclaw(tmp_path).tiers["cold"]
    doc = parse.parse(text, "MEMORY.md")
    recalled = {it.id: 3 for it in doc.items[:150]}            # the first 150 rules are in use
    cuts = fit_cuts(doc, text, tier, "cl100k_base", [], lambda: {}, TODAY, recalled)
    starts = {s for s, *_ in cuts}
    assert not starts & {it.line for it in doc.items[:150]}
    assert line_count(cut_lines(text, [(s, e) for s, e, *_ in cuts])) < 200
