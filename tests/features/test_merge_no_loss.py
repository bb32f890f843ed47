"""Merge property: over >= 1,000 random pairs of branches, 0 lines lost, 0 duplicated, 0
conflicts (issue 11, item 7). Each case edits one file on two branches (tests/merge_model.py:
add entries, some under a heading that already exists; append; edit; delete; rename a
heading), merges them with the driver's core, and counts every item line and heading
against what the model says must survive. Hand-written seeds (tests/fixtures/merge and the
squad fixture: repeated and identical entries, newest-first entries with session
markers, frontmatter, undated sections between entries) run everywhere; real Squad
histories and decisions from the corpus run where it is present. A smaller sample goes
through a real `git merge` with the driver installed as `tiergit install` registers it.
"""
from __future__ import annotations

import random
import subprocess
from pathlib import Path

import merge_model as mm
import pytest
from conftest import corpus_files, corpus_map

from tiergit.core.merge import merge_texts
from tiergit.features import install

FIXTURES = Path(__file__).parents[1] / "fixtures"
HAND_SEEDS = sorted((FIXTURES / "merge").glob("*.md")) + sorted((FIXTURES / "squad").rglob("*.md"))
MAX_SEED_BYTES = 40_000   # larger corpus files add time, not new shapes


def models_of(paths: list[Path]) -> list[tuple[str, str, mm.Model]]:
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        text = text if text.endswith("\n") else text + "\n"
        model = mm.model_of(text) if len(text) <= MAX_SEED_BYTES else None
        if model is not None:
            assert mm.render(model, mm.Branch("base", model.base, model.order)) == text, path
            out.append((str(path), text, model))
    return out


# How the two branches save the file: (base, ours, theirs) as (CRLF, BOM). When both changed
# it, the merge must come out in the base's line ending and with the base's BOM.
SKINS = [((False, False),) * 3, ((False, False), (True, False), (False, False)),
         ((False, False), (False, False), (True, False)), ((True, False), (True, False), (False, False)),
         ((True, False), (False, False), (False, False)), ((False, True),) * 3,
         ((False, True), (False, False), (False, True)), ((False, False), (False, True), (True, True))]


def dress(text: str, skin: tuple[bool, bool]) -> str:
    crlf, bom = skin
    return ("\ufeff" if bom else "") + (text.replace("\n", "\r\n") if crlf else text)


def skin_faults(merged: str, base_skin: tuple[bool, bool]) -> int:
    """Line endings not the base's, or a BOM that is not the base's (0 when consistent)."""
    crlf, bom = base_skin
    lf_only = merged.count("\n") - merged.count("\r\n")
    faults = lf_only if crlf else merged.count("\r\n")
    return faults + (merged.startswith("\ufeff") != bom) + merged[1:].count("\ufeff")


def run_cases(seeds, n: int, seed: int) -> dict:
    rng = random.Random(seed)
    totals = {"cases": 0, "lost": 0, "duplicated": 0, "conflicts": 0, "skin_faults": 0, "renames": 0,
              "repeated": 0, "delete_vs_edit": 0, "moves": 0, "reorders": 0, "both_edit_one_entry": 0,
              "mixed_skins": 0}
    failures = []
    for case in range(n):
        path, text, model = rng.choice(seeds)
        a, b = mm.branch_pair(model, rng)
        skins = rng.choice(SKINS)
        base, ours, theirs = (dress(t, k) for t, k in zip((text, mm.render(model, a), mm.render(model, b)), skins))
        result = merge_texts(base, ours, theirs)
        # A side that is the base's bytes changed nothing: the other side's bytes are the answer.
        want = skins[1] if theirs in (base, ours) else skins[2] if ours == base else skins[0]
        faults = skin_faults(result.text, want)
        lost, dup = mm.check(model, a, b, result.text.lstrip("\ufeff"))
        totals["cases"] += 1
        totals["lost"] += lost
        totals["duplicated"] += dup
        totals["conflicts"] += result.conflicts
        totals["skin_faults"] += faults
        _count_shapes(model, a, b, skins, totals)
        if (lost or dup or result.conflicts or faults) and len(failures) < 3:
            failures.append((case, path, a.state, b.state, a.order, b.order, skins, lost, dup, result.conflicts, faults))
    assert not failures, failures
    return totals


def _count_shapes(model: mm.Model, a: mm.Branch, b: mm.Branch, skins, totals: dict) -> None:
    states = [(a.state.get(u), b.state.get(u)) for u in model.order]
    totals["renames"] += any("renamed" in s for s in states)
    totals["repeated"] += any(h in {e.heading_line for e in model.base.values()}
                              for h in a.added_headings + b.added_headings)
    totals["delete_vs_edit"] += any("deleted" in s and any(x in ("changed", "renamed") for x in s)
                                    for s in states)
    base_order = [u for u in model.order]
    for x in (a, b):
        kept = [u for u in x.order if u in model.base]
        totals["reorders"] += kept == base_order[::-1]
        totals["moves"] += kept != base_order and kept != base_order[::-1]
    totals["both_edit_one_entry"] += any(s == ("changed", "changed") for s in states)
    totals["mixed_skins"] += len(set(skins)) > 1


def test_hand_written_seeds_lose_and_duplicate_nothing():
    seeds = models_of(HAND_SEEDS)
    assert len(seeds) >= 4
    totals = run_cases(seeds, 600, seed=11)
    assert totals["lost"] == totals["duplicated"] == totals["conflicts"] == totals["skin_faults"] == 0
    # The cases the issues name are all exercised, many times each.
    assert min(totals[k] for k in SHAPES) >= 30, totals


_CORPUS_SEEDS: list = []


SHAPES = ("renames", "repeated", "delete_vs_edit", "moves", "reorders", "both_edit_one_entry", "mixed_skins")


def _corpus_stream(seed: int) -> dict:
    return run_cases(_CORPUS_SEEDS, 500, seed=seed)


@pytest.mark.corpus
@pytest.mark.parametrize("streams", [(7, 8), (9, 10)])   # 2 x 2 seeded streams of 500: 2,000 cases
def test_corpus_seeds_lose_and_duplicate_nothing_over_2000_cases(streams):
    seeds = models_of(corpus_files("*/.squad/agents/*/history.md") + corpus_files("*/.squad/decisions.md"))
    assert len(seeds) >= 20
    _CORPUS_SEEDS[:] = seeds   # the forked workers see them
    results = corpus_map(_corpus_stream, list(streams), min_items=2)   # one stream per core
    totals = {k: sum(h[k] for h in results) for k in results[0]}
    print(f"corpus merge property, streams {streams}: {totals}")
    assert totals["cases"] == 1000
    assert totals["lost"] == totals["duplicated"] == totals["conflicts"] == totals["skin_faults"] == 0
    assert min(totals[k] for k in SHAPES) >= 40, totals


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)


@pytest.mark.e2e
def test_real_git_merges_agree(tmp_path):
    """The same property through git: the driver as registered, a real merge, its exit code."""
    seeds = models_of(HAND_SEEDS)
    rng = random.Random(5)
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "merge.tiergit.driver", install.driver_command())
    (repo / ".gitattributes").write_text("*.md merge=tiergit\n")
    for case in range(12):
        path, base, model = seeds[case % len(seeds)]
        a, b = mm.branch_pair(model, rng)
        _git(repo, "checkout", "-q", "--orphan", f"base{case}")
        for name, text in ((f"base{case}", base), (f"a{case}", mm.render(model, a)), (f"b{case}", mm.render(model, b))):
            if name != f"base{case}":
                _git(repo, "checkout", "-q", "-b", name, f"base{case}")
            (repo / "memory.md").write_text(text)
            _git(repo, "add", "-A")
            _git(repo, "commit", "-q", "--allow-empty", "-m", name)
        _git(repo, "checkout", "-q", f"a{case}")
        done = _git(repo, "merge", "--no-edit", "-q", f"b{case}")
        merged = (repo / "memory.md").read_text()
        assert done.returncode == 0, (path, done.stderr)
        assert mm.check(model, a, b, merged) == (0, 0), path


RIVER = "davidortinau_SentenceStudio/.squad/agents/river/history.md"


@pytest.mark.corpus
def test_the_river_entry_union_lost_is_kept(tmp_path):
    """Issue 25's lost entry, on the real file: one branch swaps river's two dated entries, the
    other replaces the 2026-06-29 entry with its own session entry in the same place. A swap reads
    the same whichever entry moved, and git's diff (like the driver's) reads it as 07-12 moving up:
    06-29 then looks unchanged on the swapping branch, so `merge=union` takes the other branch's
    lines there and drops its text, and the driver dropped it too (deleted on one side, unchanged on the
    other). Now an entry one side may have moved counts as changed there, and is kept."""
    from conftest import CORPUS

    base = (CORPUS / RIVER).read_text(encoding="utf-8")
    i, j = base.index("## 2026-06-29"), base.index("## 2026-07-12")
    head, e0629, e0712 = base[:i], base[i:j], base[j:]
    swapped = head + e0712 + e0629   # each entry with the blank lines after it, as it was
    replaced = head + "## 2026-06-17: b0 session\n\n- [fact] b0 learned something new\n\n" + e0712
    for name, text in (("base", base), ("ours", swapped), ("theirs", replaced)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    union = subprocess.run(["git", "merge-file", "--union", "-p", "ours", "base", "theirs"], cwd=tmp_path,
                           capture_output=True, text=True).stdout
    body = e0629.split("\n")[2]   # the entry's one paragraph ("Captain ear-tested ...")
    assert body and body not in union   # what union does: its heading may stay, its text is gone
    merged = merge_texts(base, swapped, replaced)
    assert merged.conflicts == 0
    assert [merged.text.count(h) for h in ("## 2026-06-29", "## 2026-07-12", "## 2026-06-17")] == [1, 1, 1]
    assert e0629.strip() in merged.text and e0712.strip() in merged.text
