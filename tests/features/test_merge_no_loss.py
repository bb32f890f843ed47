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


def run_cases(seeds, n: int, seed: int) -> dict:
    rng = random.Random(seed)
    totals = {"cases": 0, "lost": 0, "duplicated": 0, "conflicts": 0, "renames": 0, "repeated": 0,
              "delete_vs_edit": 0}
    failures = []
    for case in range(n):
        path, base, model = rng.choice(seeds)
        a, b = mm.branch_pair(model, rng)
        result = merge_texts(base, mm.render(model, a), mm.render(model, b))
        lost, dup = mm.check(model, a, b, result.text)
        totals["cases"] += 1
        totals["lost"] += lost
        totals["duplicated"] += dup
        totals["conflicts"] += result.conflicts
        states = [(a.state.get(u), b.state.get(u)) for u in model.order]
        totals["renames"] += any("renamed" in s for s in states)
        totals["repeated"] += any(h in {e.heading_line for e in model.base.values()}
                                  for h in a.added_headings + b.added_headings)
        totals["delete_vs_edit"] += any("deleted" in s and any(x in ("changed", "renamed") for x in s)
                                        for s in states)
        if (lost or dup or result.conflicts) and len(failures) < 3:
            failures.append((case, path, a.state, b.state, lost, dup, result.conflicts))
    assert not failures, failures
    return totals


def test_hand_written_seeds_lose_and_duplicate_nothing():
    seeds = models_of(HAND_SEEDS)
    assert len(seeds) >= 4
    totals = run_cases(seeds, 600, seed=11)
    assert totals["lost"] == totals["duplicated"] == totals["conflicts"] == 0
    # The cases the issue names are all exercised, many times each.
    assert min(totals["renames"], totals["repeated"], totals["delete_vs_edit"]) >= 50, totals


_CORPUS_SEEDS: list = []


def _corpus_half(seed: int) -> dict:
    return run_cases(_CORPUS_SEEDS, 500, seed=seed)


@pytest.mark.corpus
def test_corpus_seeds_lose_and_duplicate_nothing_over_1000_cases():
    seeds = models_of(corpus_files("*/.squad/agents/*/history.md") + corpus_files("*/.squad/decisions.md"))
    assert len(seeds) >= 20
    _CORPUS_SEEDS[:] = seeds   # the forked workers see them
    halves = corpus_map(_corpus_half, [7, 8], min_items=2)   # two random streams of 500, one per core
    totals = {k: sum(h[k] for h in halves) for k in halves[0]}
    assert totals["cases"] == 1000
    assert totals["lost"] == totals["duplicated"] == totals["conflicts"] == 0
    assert min(totals["renames"], totals["repeated"], totals["delete_vs_edit"]) >= 100, totals


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
