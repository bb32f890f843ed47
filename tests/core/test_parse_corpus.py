"""Every history.md, decisions.md and replay version in the real corpus parses losslessly,
with the entry and pinned-section counts below.

The table was computed once with tiergit.core.parse and checked by hand on several files:
bradygaster eecom/history.md has 24 `### … (date)` headings and 8 undated sections
(`# EECOM`, `## Learnings` and six undated `###` such as `### CLI Entry Point Architecture`);
pao/history.md has 14 dated `###` of 37 headings; martinopedal atlas/history.md dates its
entries at `##` (`## 2026-04-21 - …`), so its dated `###` under `## Core Context` and
`## Learnings` stay inside those 4 pinned sections; bradygaster decisions.md has no dates.
"""
from __future__ import annotations

import functools
from pathlib import Path

import pytest
from conftest import CORPUS, HAVE_CORPUS

from tiergit.core import kinds, parse

pytestmark = pytest.mark.corpus

# The table below was counted on these two projects; the corpus has grown since, and the newer
# projects are held to the same invariants (lossless, well-formed) without hand-checked counts.
TABLED = ("bradygaster_squad", "martinopedal_azure-analyzer")

# path (relative to CORPUS) -> (entries, pinned sections, entry heading level)
EXPECTED = {
    "bradygaster_squad/.squad/agents/booster/history.md": (3, 11, 3),
    "bradygaster_squad/.squad/agents/capcom/history.md": (2, 4, 3),
    "bradygaster_squad/.squad/agents/control/history.md": (1, 11, 3),
    "bradygaster_squad/.squad/agents/eecom/history.md": (24, 8, 3),
    "bradygaster_squad/.squad/agents/fido/history.md": (7, 14, 3),
    "bradygaster_squad/.squad/agents/flight/history.md": (10, 10, 3),
    "bradygaster_squad/.squad/agents/gnc/history.md": (1, 5, 3),
    "bradygaster_squad/.squad/agents/handbook/history.md": (1, 2, 3),
    "bradygaster_squad/.squad/agents/inco/history.md": (0, 3, None),
    "bradygaster_squad/.squad/agents/network/history.md": (3, 2, 3),
    "bradygaster_squad/.squad/agents/pao/history.md": (14, 23, 3),
    "bradygaster_squad/.squad/agents/procedures/history.md": (9, 8, 3),
    "bradygaster_squad/.squad/agents/ralph/history.md": (0, 4, None),
    "bradygaster_squad/.squad/agents/retro/history.md": (1, 2, 3),
    "bradygaster_squad/.squad/agents/scribe/history.md": (0, 1, None),
    "bradygaster_squad/.squad/agents/surgeon/history.md": (3, 7, 3),
    "bradygaster_squad/.squad/agents/vox/history.md": (2, 2, 3),
    "bradygaster_squad/.squad/decisions.md": (0, 16, None),
    "bradygaster_squad/replay/eecom/001_2026-03-08_1575b884.md": (0, 2, None),
    "bradygaster_squad/replay/eecom/002_2026-03-08_2e16bd79.md": (0, 2, None),
    "bradygaster_squad/replay/eecom/003_2026-03-08_91594fca.md": (0, 2, None),
    "bradygaster_squad/replay/eecom/004_2026-03-10_f38005b6.md": (1, 8, 3),
    "bradygaster_squad/replay/eecom/005_2026-03-10_802dddc3.md": (1, 8, 3),
    "bradygaster_squad/replay/eecom/006_2026-03-15_4e1795c5.md": (1, 8, 3),
    "bradygaster_squad/replay/eecom/007_2026-03-15_69dc8563.md": (2, 8, 3),
    "bradygaster_squad/replay/eecom/008_2026-03-18_ee10f720.md": (3, 8, 3),
    "bradygaster_squad/replay/eecom/009_2026-03-19_4476f421.md": (4, 8, 3),
    "bradygaster_squad/replay/eecom/010_2026-03-20_d46677f4.md": (2, 8, 3),
    "bradygaster_squad/replay/eecom/011_2026-03-21_7c00ab75.md": (3, 8, 3),
    "bradygaster_squad/replay/eecom/012_2026-03-22_74a4f368.md": (6, 8, 3),
    "bradygaster_squad/replay/eecom/013_2026-03-22_b7412225.md": (5, 8, 3),
    "bradygaster_squad/replay/eecom/014_2026-03-22_e42709ca.md": (6, 8, 3),
    "bradygaster_squad/replay/eecom/015_2026-03-22_d262715e.md": (9, 8, 3),
    "bradygaster_squad/replay/eecom/016_2026-03-22_beb18a39.md": (10, 8, 3),
    "bradygaster_squad/replay/eecom/017_2026-03-23_368958b7.md": (11, 8, 3),
    "bradygaster_squad/replay/eecom/018_2026-03-23_ac36b7eb.md": (15, 8, 3),
    "bradygaster_squad/replay/eecom/019_2026-03-23_e703927d.md": (16, 8, 3),
    "bradygaster_squad/replay/eecom/020_2026-03-23_561b1a3c.md": (17, 8, 3),
    "bradygaster_squad/replay/eecom/021_2026-03-23_dcf9fd4d.md": (18, 8, 3),
    "bradygaster_squad/replay/eecom/022_2026-03-24_2f5e89ed.md": (19, 8, 3),
    "bradygaster_squad/replay/eecom/023_2026-03-25_dfc0a592.md": (20, 8, 3),
    "bradygaster_squad/replay/eecom/024_2026-04-02_efb56ac6.md": (22, 8, 3),
    "bradygaster_squad/replay/eecom/025_2026-04-12_419babeb.md": (23, 8, 3),
    "bradygaster_squad/replay/eecom/026_2026-05-01_36eed057.md": (24, 8, 3),
    "bradygaster_squad/replay/pao/001_2026-03-08_1575b884.md": (0, 2, None),
    "bradygaster_squad/replay/pao/002_2026-03-08_c56b2af9.md": (0, 2, None),
    "bradygaster_squad/replay/pao/003_2026-03-09_776f2316.md": (0, 2, None),
    "bradygaster_squad/replay/pao/004_2026-03-09_4c4f06dc.md": (0, 2, None),
    "bradygaster_squad/replay/pao/005_2026-03-09_8d0e1b38.md": (0, 2, None),
    "bradygaster_squad/replay/pao/006_2026-03-10_802dddc3.md": (0, 2, None),
    "bradygaster_squad/replay/pao/007_2026-03-10_5f2d3802.md": (0, 2, None),
    "bradygaster_squad/replay/pao/008_2026-03-10_acdd8a98.md": (0, 2, None),
    "bradygaster_squad/replay/pao/009_2026-03-10_804207ad.md": (0, 2, None),
    "bradygaster_squad/replay/pao/010_2026-03-10_02fefa74.md": (0, 2, None),
    "bradygaster_squad/replay/pao/011_2026-03-12_204ad5b2.md": (0, 2, None),
    "bradygaster_squad/replay/pao/012_2026-03-13_822f9908.md": (0, 2, None),
    "bradygaster_squad/replay/pao/013_2026-03-10_c7849595.md": (0, 2, None),
    "bradygaster_squad/replay/pao/014_2026-03-10_0d562cb9.md": (0, 2, None),
    "bradygaster_squad/replay/pao/015_2026-03-10_f138a641.md": (0, 2, None),
    "bradygaster_squad/replay/pao/016_2026-03-10_afdc9ab2.md": (0, 2, None),
    "bradygaster_squad/replay/pao/017_2026-03-13_6d99e266.md": (0, 2, None),
    "bradygaster_squad/replay/pao/018_2026-03-15_a70343c3.md": (0, 2, None),
    "bradygaster_squad/replay/pao/019_2026-03-15_ccb9b53f.md": (0, 2, None),
    "bradygaster_squad/replay/pao/020_2026-03-16_1f818add.md": (0, 3, None),
    "bradygaster_squad/replay/pao/021_2026-03-18_ee10f720.md": (0, 3, None),
    "bradygaster_squad/replay/pao/022_2026-03-21_7c00ab75.md": (1, 16, 3),
    "bradygaster_squad/replay/pao/023_2026-03-22_74a4f368.md": (4, 16, 3),
    "bradygaster_squad/replay/pao/024_2026-03-23_a5fecaf6.md": (0, 3, None),
    "bradygaster_squad/replay/pao/025_2026-03-23_3afe5f0a.md": (1, 22, 3),
    "bradygaster_squad/replay/pao/026_2026-03-23_ac36b7eb.md": (5, 22, 3),
    "bradygaster_squad/replay/pao/027_2026-03-23_561b1a3c.md": (10, 22, 3),
    "bradygaster_squad/replay/pao/028_2026-03-24_2f5e89ed.md": (11, 22, 3),
    "bradygaster_squad/replay/pao/029_2026-03-25_4a878b7b.md": (14, 23, 3),
    "martinopedal_azure-analyzer/.squad/agents/atlas/history.md": (21, 4, 2),
    "martinopedal_azure-analyzer/.squad/agents/burke/history.md": (1, 1, 2),
    "martinopedal_azure-analyzer/.squad/agents/drake/history.md": (1, 0, 2),
    "martinopedal_azure-analyzer/.squad/agents/iris/history.md": (0, 3, None),
    "martinopedal_azure-analyzer/.squad/agents/lead/history.md": (4, 3, 2),
    "martinopedal_azure-analyzer/.squad/agents/ralph/history.md": (0, 4, None),
    "martinopedal_azure-analyzer/.squad/agents/sage/history.md": (1, 2, 3),
    "martinopedal_azure-analyzer/.squad/agents/scribe/history.md": (2, 4, 2),
    "martinopedal_azure-analyzer/.squad/agents/sentinel/history.md": (7, 4, 2),
    "martinopedal_azure-analyzer/.squad/agents/sloan/history.md": (1, 1, 2),
    "martinopedal_azure-analyzer/.squad/decisions.md": (9, 4, 2),
    "martinopedal_azure-analyzer/replay/atlas/001_2026-04-15_d7c5a5e4.md": (0, 2, None),
    "martinopedal_azure-analyzer/replay/atlas/002_2026-04-20_9e6ef8bc.md": (1, 2, 2),
    "martinopedal_azure-analyzer/replay/atlas/003_2026-04-20_13be2090.md": (4, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/004_2026-04-20_eb921b3c.md": (5, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/005_2026-04-20_7643c7ff.md": (6, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/006_2026-04-20_1fa1e167.md": (7, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/007_2026-04-21_fd3f23f6.md": (8, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/008_2026-04-21_f6412c1c.md": (9, 2, 2),
    "martinopedal_azure-analyzer/replay/atlas/009_2026-04-21_eadcfba3.md": (10, 2, 2),
    "martinopedal_azure-analyzer/replay/atlas/010_2026-04-21_d880fc67.md": (11, 2, 2),
    "martinopedal_azure-analyzer/replay/atlas/011_2026-04-21_6de60244.md": (11, 2, 2),
    "martinopedal_azure-analyzer/replay/atlas/012_2026-04-23_680638b7.md": (13, 2, 2),
    "martinopedal_azure-analyzer/replay/atlas/013_2026-04-24_caae5a11.md": (13, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/014_2026-04-24_38236e5f.md": (13, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/015_2026-05-12_8306fc0d.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/016_2026-05-13_e0aefe0d.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/017_2026-05-13_427a85a0.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/018_2026-05-13_5840d0d9.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/019_2026-05-13_80df9856.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/020_2026-05-13_65c7f2b2.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/021_2026-05-13_b82bbc83.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/022_2026-05-13_2dcbbb2b.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/023_2026-05-13_bdf84e44.md": (14, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/024_2026-05-13_baecd588.md": (15, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/025_2026-05-13_f8c836c0.md": (16, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/026_2026-05-13_6d73f243.md": (17, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/027_2026-05-13_f2477009.md": (18, 3, 2),
    "martinopedal_azure-analyzer/replay/atlas/028_2026-05-13_5731699f.md": (18, 4, 2),
    "martinopedal_azure-analyzer/replay/atlas/029_2026-05-13_844d17e3.md": (19, 4, 2),
    "martinopedal_azure-analyzer/replay/atlas/030_2026-05-13_68ed7c7b.md": (21, 4, 2),
}


def corpus_files():
    if not HAVE_CORPUS:
        return []
    return sorted(p for p in CORPUS.rglob("*.md")
                  if p.name in ("history.md", "decisions.md") or "replay" in p.relative_to(CORPUS).parts)


def test_the_table_covers_every_file_of_the_tabled_projects():
    found = {p.relative_to(CORPUS).as_posix() for p in corpus_files() if p.relative_to(CORPUS).parts[0] in TABLED}
    assert found == set(EXPECTED)
    assert len(found) == 114


def _assert_well_formed(doc) -> None:
    """Every item lies inside its section and has an id; entries carry their heading date."""
    for section in doc.sections:
        last = section.line + section.text.count("\n")
        for item in section.items:
            assert section.line <= item.line <= item.end_line <= last
            assert item.id.startswith("m-")
    assert all(e.date is not None and e.level == doc.entry_level for e in doc.entries)


def _untabled():
    return [p for p in corpus_files() if p.relative_to(CORPUS).as_posix() not in EXPECTED]


@pytest.mark.parametrize("path", _untabled(), ids=lambda p: p.relative_to(CORPUS).as_posix())
def test_every_other_corpus_file_parses_losslessly_and_well_formed(path):
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    doc = parse.parse(text, str(path))
    assert doc.render() == text
    _assert_well_formed(doc)


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_corpus_file_parses_losslessly_with_expected_shape(rel):
    text = (CORPUS / rel).read_text(encoding="utf-8")
    doc = parse.parse(text, rel)
    assert doc.render() == text
    assert (len(doc.entries), len(doc.pinned), doc.entry_level) == EXPECTED[rel]
    _assert_well_formed(doc)


def test_replays_grow_entry_by_entry():
    """Replaying eecom's history in order: entries mostly accumulate, as sessions add them."""
    counts = [EXPECTED[k][0] for k in sorted(EXPECTED) if k.startswith("bradygaster_squad/replay/eecom/")]
    assert counts[0] == 0 and counts[-1] == 24
    assert sum(b >= a for a, b in zip(counts, counts[1:])) >= len(counts) - 3


# Bold labels of the real Squad files (agents/*/history.md, decisions.md) -> (kind, items that
# start with exactly that label). Counted once with tiergit.core.parse and checked against
# `grep -ohE '^\s*(- )?\*\*[A-Z][^*]{1,40}:?\*\*:?'` over the same files.
REAL_LABELS = {
    "Learning": ("rule", 7), "Key learning": ("rule", 7), "Key lessons": ("rule", 2),
    "Pattern identified": ("rule", 3), "Fix pattern": ("rule", 4), "Anti-pattern": ("rule", 3),
    "Key decisions": ("decision", 4), "Problem": ("error", 7), "Solution": ("error", 5),
    "Root cause": ("error", 4), "ROOT CAUSE": ("error", 2),
    "Context": ("context", 26), "Status": ("context", 47), "Task": ("context", 10), "PR": ("context", 10),
    "Why": ("context", 1),
}


def _squad_files(projects=TABLED):
    files = sorted(CORPUS.glob("*/.squad/agents/*/history.md")) + sorted(CORPUS.glob("*/.squad/decisions.md"))
    return [p for p in files if projects is None or p.relative_to(CORPUS).parts[0] in projects]


def _label_of(item) -> str | None:
    body = kinds.LEADING_DATE_RE.sub("", kinds.LIST_MARKER_RE.sub("", item.text.lstrip(), count=1), count=1)
    if body.startswith("**") and "**" in body[2:]:
        return body[2:body.index("**", 2)].rstrip(":")
    return None


@functools.cache
def _squad_items(path: Path) -> tuple:
    """A squad file's items, parsed once for the three label tests below (parse is pure)."""
    return tuple(parse.parse(path.read_text(encoding="utf-8", errors="surrogateescape"), str(path)).items)


def _labelled_items(projects=TABLED):
    """(path, item, label) of every item that starts with one of REAL_LABELS."""
    for path in _squad_files(projects):
        for item in _squad_items(path):
            label = _label_of(item)
            if label in REAL_LABELS:
                yield path, item, label


def test_real_labels_get_their_kind():
    seen: dict[str, int] = {}
    for path, item, label in _labelled_items():
        # The item's own text, not its section (`## Active Decisions` makes items decisions).
        assert kinds.classify(item.text) == REAL_LABELS[label][0], (path, item.line, label)
        seen[label] = seen.get(label, 0) + 1
    assert seen == {label: n for label, (_, n) in REAL_LABELS.items()}


def test_real_labels_get_their_kind_in_every_squad_project():
    seen = 0
    for path, item, label in _labelled_items(projects=None):
        assert kinds.classify(item.text) == REAL_LABELS[label][0], (path, item.line, label)
        seen += 1
    assert seen > sum(n for _, n in REAL_LABELS.values())


def test_each_project_has_more_durable_items_than_the_narrow_vocabulary_gave():
    # Durable items (decision, rule, fact, correction) per project, histories + decisions.md.
    # With the exact-label vocabulary of DESIGN.md's first table: 24 and 68.
    durable = {}
    for path in _squad_files():
        project = path.relative_to(CORPUS).parts[0]
        items = _squad_items(path)
        durable[project] = durable.get(project, 0) + sum(i.durable for i in items)
    # The label vocabulary alone found 56 and 89; plain-language judgement (tiergit/core/judge.py) adds to them.
    assert durable["bradygaster_squad"] >= 56 and durable["martinopedal_azure-analyzer"] >= 89
