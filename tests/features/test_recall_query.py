"""Recall for people and agents: questions widened (stems, identifier parts, prefix), dates, snippets, --full, ranks."""
from __future__ import annotations

import json
import re

from conftest import tiergit, write

from tiergit.core import query, snippet

COLD = """# data

### Theme engine (2026-05-04)

- **Context:** We ported the settings page to the new theme engine last sprint, which took longer than planned
  because the designers changed the palette twice and the dark mode tokens were renamed on the way.
  - The old skin override conflicts with ControlSkin.BorderStyle per control, so borders doubled on focus.
  - Fix: drop the override and set `border_style_default` once in the theme.
- [rule] Run the visual snapshot suite before merging theme changes.

### Release notes (2026-05-05)

- Wrote the release notes for the spring build.
"""


def test_question_words_are_widened():
    words = {c.word: c for c in query.concepts("Why did the ControlSkin.BorderStyle break borders?")}
    assert "why" not in words and "the" not in words                       # stop words out
    ident = words["borderstyle"]
    assert {"border", "style"} <= set(ident.exact)                          # identifier parts
    assert "break" in words and words["borders"].prefixes == ["border"]    # stem as a prefix
    joined = query.concepts("border style")
    assert "borderstyle" in joined[0].exact                                 # neighbours joined
    assert query.concepts("snapsh")[-1].prefixes == ["snapsh"]             # last word as a prefix
    assert [c.word for c in query.concepts("2026-05-04 14:05 — Theme engine")] == ["theme", "engine"]
    assert [c.word for c in query.concepts("why did we")] == ["why", "did", "we"]   # only stop words: kept


def test_a_word_that_is_its_own_stem_matches_its_inflections_once():
    avoid = {c.word: c for c in query.concepts("how does the service avoid dividing by zero")}["avoid"]
    assert {"avoids", "avoided", "avoiding"} <= set(avoid.exact) and not avoid.prefixes
    assert {"tests", "tested"}.isdisjoint(query.concepts("test flaky")[0].exact)   # 4 letters: no inflections
    last = query.concepts("how to avoid")[-1]     # the last word's prefix holds them: an FTS5 match of both counts twice
    assert last.prefixes == ["avoid"] and last.exact == ["avoid"]
    assert avoid.matches({"division", "avoided"}) and not avoid.matches({"avoidance"})


def test_snippet_is_the_best_matching_sub_item():
    raw = COLD.split("### Theme engine (2026-05-04)\n\n")[1].split("- [rule]")[0]
    text, matched = snippet.best(raw, "border style conflict")
    assert text.startswith("The old skin override conflicts with ControlSkin.BorderStyle")
    assert set(matched) == {"border", "style", "conflict"}


def test_text_output_shows_ranked_relevance_matched_words_and_snippet(squad_repo):
    write(squad_repo / ".squad" / "memory" / "cold" / "data.md", COLD)
    proc = tiergit(squad_repo, "recall", "why do borders conflict with the skin style", "--no-log")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    first = out.split("\n 2.")[0]
    assert "ControlSkin.BorderStyle per control" in first and "[matched:" in first
    assert "palette twice" not in first          # the snippet, not the whole paragraph
    scores = [float(m) for m in re.findall(r"^\s*\d+\. (\d\.\d\d) ", out, re.M)]
    assert scores[0] == 1.0 and scores == sorted(scores, reverse=True)
    full = tiergit(squad_repo, "recall", "why do borders conflict with the skin style", "--no-log", "--full").stdout
    assert "palette twice" in full and "border_style_default" in full   # the whole item, nested list and all


def test_natural_question_finds_what_keywords_find(squad_repo):
    write(squad_repo / ".squad" / "memory" / "cold" / "data.md", COLD)
    hits = json.loads(tiergit(squad_repo, "recall", "which tests should run before merging themes?",
                              "--no-log", "--json").stdout)["hits"]
    assert hits[0]["kind"] == "rule" and "snapshot suite" in hits[0]["text"]
    hits = json.loads(tiergit(squad_repo, "recall", "border style default", "--no-log", "--json").stdout)["hits"]
    assert "border_style_default" in hits[0]["snippet"]


def test_phrase_windows_and_share():
    words = query.phrase_words("Publish the wheel for each release to PyPI, 2026-05-04")
    assert words == ["publish", "the", "wheel", "for", "each", "release", "to", "pypi"]
    expr = query.phrase_expression(query.phrase_words("what is the for each release"))
    assert '"what is the"' not in expr and '"for each release"' in expr      # stop words alone: no phrase
    assert query.phrase_share(query.phrase_words("for each release to"), "Tag it for each release to PyPI") == 1.0
    assert query.phrase_share(query.phrase_words("the release to"), "release the to") == 0.0
    assert query.phrase_share(query.phrase_words("a b"), "a b") == 0.0         # under three words: no phrase


def test_a_pasted_fragment_finds_its_line_among_many_alike(squad_repo):
    """Sixty short lines share the fragment's words; bm25 prefers them (short, dense). The one line that
    holds the words in the fragment's order is found first: a pasted fragment names its line."""
    lines = [f"- Release {n}: tag each build, then push to the registry for the team" for n in range(60)]
    target = ("- Versioning: the changelog entry is written by hand for each release to keep the wording "
              "reviewable, and the tag is created after the changelog PR merges (never before)")
    write(squad_repo / ".squad" / "memory" / "cold" / "data.md",
          "# data\n\n### Releases (2026-05-04)\n\n" + "\n".join(lines[:30] + [target] + lines[30:]) + "\n")
    proc = tiergit(squad_repo, "recall", "for each release to", "--json", "--no-log", "-n", "3")
    hits = json.loads(proc.stdout)["hits"]
    assert hits and "written by hand for each release" in hits[0]["text"]


def test_a_date_in_the_question_brings_the_item_written_then(squad_repo) -> None:
    """"on 12 March, 2026" is no query word: of two items with the same words, the one dated then (or in
    the days after, when it is told) comes first, in the full CLI and the fast path alike."""
    write(squad_repo / ".squad" / "memory" / "cold" / "picard.md",
          "# picard\n\n### Cache review (2026-01-20)\n\n- Picard: The broker cache keeps tokens ninety days.\n\n"
          "### Cache review (2026-03-13)\n\n- Picard: The broker cache keeps tokens thirty days since yesterday.\n")
    for _ in range(2):   # the first call builds the index (full CLI), the second is the fast path's
        proc = tiergit(squad_repo, "recall", "broker cache tokens on 12 March, 2026", "--json", "--no-log")
        assert proc.returncode == 0, proc.stderr
        hits = json.loads(proc.stdout)["hits"]
        assert [h["line"] for h in hits] == [9, 5]
    undated = json.loads(tiergit(squad_repo, "recall", "broker cache tokens", "--json", "--no-log").stdout)["hits"]
    assert [h["line"] for h in undated] == [5, 9]   # without the date, the earlier line on a tie
