"""Both sides append after whatever block ends the file (issue 25, item 1): a `---` rule, a
numbered or bulleted list, a table, a fence, an HTML comment, a quote, a paragraph, a bare
heading, frontmatter alone, a last line without its newline. git's `merge=union` merges
every one of these; so must the driver: 0 conflicts, every line either side added exactly
once, every base line kept. Hand-written seeds run everywhere; a seeded sample of 2,000 real
corpus files x shapes x appends runs where the corpus is; a sample goes through real
`git merge`s with the driver registered as `tiergit install` does (with moves, reorders and
CRLF/BOM sides from tests/merge_model.py too), and must give the driver's exact bytes.
"""
from __future__ import annotations

import random
import subprocess
from collections import Counter
from pathlib import Path

import merge_model as mm
import pytest
from conftest import corpus_files, corpus_map
from test_merge_no_loss import HAND_SEEDS, SKINS, dress, models_of, skin_faults

from tiergit.errors import InputError
from tiergit.core import parse
from tiergit.core.merge import merge_texts
from tiergit.features import install

LAST_BLOCKS = {
    "rule": "\n---\n",
    "rule_then_paragraph": "\n---\n\nTeam update (2026-06-30): something was decided.\n",
    "numbered_list": "\n1. first step\n2. second step\n",
    "bulleted_list": "\n- one point\n- another point\n",
    "table": "\n| col | val |\n| --- | --- |\n| a | 1 |\n",
    "fence": "\n```bash\nmake test\n```\n",
    "html_comment": "\n<!-- a note -->\n",
    "html_comment_lines": "\n<!--\nhidden\nnote\n-->\n",
    "quote": "\n> quoted line\n",
    "paragraph": "\nplain closing paragraph.\n",
    "bare_heading": "\n## Later\n",
    "no_final_newline": "\nlast line without newline",
}
APPENDS = {
    "entry": lambda side, hashes: f"\n{hashes} 2026-08-0{side[1]}: {side[0]} session\n\n- {side[0]} learned\n",
    "entry_level_2": lambda side, hashes: f"\n## 2026-08-0{side[1]}: {side[0]} session\n\n- {side[0]} learned\n",
    "entry_tight": lambda side, hashes: f"{hashes} 2026-08-0{side[1]}: {side[0]} session\n\n- {side[0]} learned\n",
    "item": lambda side, hashes: f"- {side[0]} item added\n",
    "paragraph": lambda side, hashes: f"\n{side[0]} paragraph added.\n",
    "rule_then_paragraph": lambda side, hashes: f"\n---\n\nTeam update ({side[0]}): shipped.\n",
    "rule_tight": lambda side, hashes: f"---\n\nTeam update ({side[0]}): shipped.\n",
    "numbered_item": lambda side, hashes: f"3. {side[0]} step\n",
    "two_bullets": lambda side, hashes: f"- {side[0]} bullet\n- {side[0]} second\n",
    "session_marker": lambda side, hashes: (f"\n{hashes} 2026-08-0{side[1]}: {side[0]}\n<!-- s-{side[0]}{side[0]}1234 -->\n\n"
                                            f"- {side[0]} marked\n"),
}
OURS, THEIRS = ("ours", 1), ("theirs", 2)


def _hashes(text: str) -> str:
    try:
        return "#" * (parse.parse(text).entry_level or 2)
    except InputError:
        return "##"


def three_versions(text: str, block: str, append: str) -> tuple[str, str, str]:
    """The base (the file with `block` as its last block), and each side with its append."""
    base = text + LAST_BLOCKS[block]
    sep = "\n" if not base.endswith("\n") else ""
    hashes = _hashes(base)
    return base, base + sep + APPENDS[append](OURS, hashes), base + sep + APPENDS[append](THEIRS, hashes)


def faults(base: str, ours: str, theirs: str, merged: str) -> tuple[int, int]:
    """(lost, duplicated) lines: with appends only, a line must appear as often as in the base
    plus what each side added. Lines of words only: a `---` both sides put before their text
    may come out once (the entry merge keys text between items by its content)."""
    b, o, t, m = (Counter(x.splitlines()) for x in (base, ours, theirs, merged))
    lost = dup = 0
    for line in set(o) | set(t):
        if not any(c.isalnum() for c in line):
            continue
        want = o[line] + t[line] - b[line]
        lost += max(0, want - m[line])
        dup += max(0, m[line] - want)
    return lost, dup


def run_appends(cases: list[tuple[str, str, str, tuple]]) -> Counter:
    totals: Counter = Counter()
    failures = []
    for name, block, append, skin in cases:
        text = Path(name).read_text(encoding="utf-8") if name else ""
        text = text if not text or text.endswith("\n") else text + "\n"
        base, ours, theirs = (dress(x, k) for x, k in zip(three_versions(text, block, append), skin))
        result = merge_texts(base, ours, theirs)
        lost, dup = faults(*(x.replace("\r\n", "\n").lstrip("\ufeff") for x in (base, ours, theirs, result.text)))
        bad = skin_faults(result.text, skin[0])
        totals.update(cases=1, conflicts=result.conflicts, lost=lost, duplicated=dup, skin_faults=bad)
        if (result.conflicts or lost or dup or bad) and len(failures) < 3:
            failures.append((name, block, append, skin, result.conflicts, lost, dup, bad, result.conflict_sections))
    assert not failures, failures
    return totals


def test_appends_after_every_last_block_merge_cleanly_on_hand_written_seeds():
    seeds = [str(p) for p in HAND_SEEDS] + [""]
    skins = [SKINS[3], SKINS[6]]   # a CRLF base with an LF side; a BOM base with a side without
    cases = [(s, b, a, k) for s in seeds for b in LAST_BLOCKS for a in APPENDS for k in skins]
    totals = run_appends(cases)
    assert totals["cases"] == len(seeds) * len(LAST_BLOCKS) * len(APPENDS) * 2 >= 1000
    assert totals["conflicts"] == totals["lost"] == totals["duplicated"] == totals["skin_faults"] == 0


def test_frontmatter_only_file_takes_both_appends():
    base = "---\nagent: river\n---\n"
    for add in ("\n## 2026-08-01: {} session\n\n- {} learned\n", "- {} item\n", "{} note\n"):
        ours, theirs = base + add.format("o", "o"), base + add.format("t", "t")
        merged = merge_texts(base, ours, theirs)
        assert merged.conflicts == 0 and merged.text.startswith(base)
        assert faults(base, ours, theirs, merged.text) == (0, 0), merged.text


def _corpus_sample(seed: int, n: int) -> list[tuple[str, str, str, tuple]]:
    files = [str(p) for p in corpus_files("*/.squad/agents/*/history.md") + corpus_files("openclaw_*/MEMORY.md")
             + corpus_files("openclaw_*/memory/*.md") if p.stat().st_size <= 60_000]
    rng = random.Random(seed)
    return [(rng.choice(files), rng.choice(list(LAST_BLOCKS)), rng.choice(list(APPENDS)), rng.choice(SKINS))
            for _ in range(n)]


@pytest.mark.corpus
@pytest.mark.parametrize("seed", [25, 26, 27, 28])   # four seeded samples of 500 (each under a minute)
def test_appends_after_every_last_block_merge_cleanly_on_2000_corpus_cases(seed):
    cases = _corpus_sample(seed, 500)
    assert {c[1] for c in cases} == set(LAST_BLOCKS) and {c[2] for c in cases} == set(APPENDS)
    chunks = corpus_map(run_appends, [cases[i::8] for i in range(8)], min_items=2)
    totals = sum(chunks, Counter())
    print(f"last-block appends over the corpus (seed {seed}): {dict(totals)}")
    assert totals["cases"] == 500
    assert totals["conflicts"] == totals["lost"] == totals["duplicated"] == totals["skin_faults"] == 0


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True)


def _git_merge(repo: Path, case: int, base: str, ours: str, theirs: str) -> tuple[int, bytes]:
    _git(repo, "checkout", "-q", "--orphan", f"base{case}")
    for name, text in ((f"base{case}", base), (f"a{case}", ours), (f"b{case}", theirs)):
        if name != f"base{case}":
            _git(repo, "checkout", "-q", "-b", name, f"base{case}")
        (repo / "history.md").write_bytes(text.encode("utf-8"))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "--allow-empty", "-m", name)
    _git(repo, "checkout", "-q", f"a{case}")
    done = _git(repo, "merge", "--no-edit", "-q", f"b{case}")
    return done.returncode, (repo / "history.md").read_bytes()


def _git_cases(rng: random.Random) -> list[tuple[str, str, str, str]]:
    """Last-block appends, then the model's moves, reorders, renames, deletes with CRLF/BOM sides."""
    seeds = models_of(HAND_SEEDS + corpus_files("*/.squad/agents/*/history.md")[:12])
    out = []
    for n in range(24):
        path, text, model = rng.choice(seeds)
        if n % 2 == 0:
            block, append = list(LAST_BLOCKS)[n // 2 % len(LAST_BLOCKS)], rng.choice(list(APPENDS))
            versions = three_versions(text, block, append)
            label = f"{path}: {block} + {append}"
        else:
            a, b = mm.branch_pair(model, rng)
            versions = (text, mm.render(model, a), mm.render(model, b))
            label = f"{path}: {a.order} / {b.order}"
        skin = rng.choice(SKINS)
        out.append((label, *(dress(x, k) for x, k in zip(versions, skin))))
    return out


@pytest.mark.e2e
def test_real_git_merges_through_the_installed_driver(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "core.autocrlf", "false")
    _git(repo, "config", "merge.tiergit.driver", install.driver_command())
    (repo / ".gitattributes").write_text("*.md merge=tiergit\n")
    for case, (label, base, ours, theirs) in enumerate(_git_cases(random.Random(2025))):
        if len({base, ours, theirs}) < 3:
            continue   # git settles it without the driver
        code, merged = _git_merge(repo, case, base, ours, theirs)
        want = merge_texts(base, ours, theirs)
        assert want.conflicts == 0, label
        assert (code, merged) == (0, want.text.encode("utf-8")), label
