"""Property: whatever the notes and whatever a summarizer returns, every item that must be kept
ends up verbatim in the entry body (DESIGN rule 2), and no item is written twice."""
from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tiergit.core import parse, sessiontext
from tiergit.features import compact
from tiergit.shell import summarizer

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
SENTENCE = st.lists(WORD, min_size=1, max_size=12).map(lambda ws: " ".join(ws).capitalize() + ".")
PREFIX = st.sampled_from(["[decision] ", "[correction] ", "[permission] ", "[error] ", "[todo] ",
                          "[rule] ", "[fact] ", "**Fix:** ", "**Pattern:** ", "", "", "", "[log] "])
ITEM = st.tuples(PREFIX, SENTENCE).map(lambda p: f"- {p[0]}{p[1]}")
SECTION = st.tuples(st.sampled_from(["Notes", "Active decisions", "Blockers", "Last actions", "Work (2026-05-01)"]),
                    st.lists(ITEM, min_size=1, max_size=8))


def notes_text(sections) -> str:
    return "# Hot\n\n" + "\n".join(f"## {h}\n" + "\n".join(items) + "\n" for h, items in sections)


@settings(max_examples=150, deadline=None)
@given(st.lists(SECTION, min_size=1, max_size=5), st.text(max_size=200))
def test_every_must_keep_item_survives_any_summary(sections, summary) -> None:
    doc = parse.parse(notes_text(sections), "hot.md")
    result = compact.compact_doc(doc, set())
    must = {i.id: i.clean for i in doc.items if i.kind in sessiontext.KEEP_KINDS}
    for body in (result.body(), compact.ensure_kept(summarizer.sanitize_summary(summary), result.kept)[0]):
        folded = " ".join(body.split())
        for clean in must.values():
            assert " ".join(clean.split()) in folded
    # Must-keep items are kept once each; context sentences that are not noise are kept too (issue 21).
    assert len(result.kept) == len(set(result.kept_ids)) >= len(must) and set(must) <= set(result.kept_ids)


@settings(max_examples=80, deadline=None)
@given(st.lists(SECTION, min_size=1, max_size=4))
# Found by a CI run: the context line repeats the decision, which cold already has on the second run.
@example([("Notes", ["- [decision] A aa aa aa.", "- Aa aa aa."])])
# And when both are context: the first, kept whole, is in cold on the second run (found by a CI run, stop 48).
@example([("Notes", ["- A aa aa aa.", "- Aa aa aa."])])
def test_items_already_in_cold_are_not_written_again(sections) -> None:
    doc = parse.parse(notes_text(sections), "hot.md")
    first = compact.compact_doc(doc, set())
    cold = parse.parse("# Cold\n\n### 2026-05-01 · x\n\n" + first.body() + "\n", "cold.md")
    second = compact.compact_doc(doc, {i.id for i in cold.items})
    assert second.kept == []


def test_a_decision_repeating_the_task_line_is_still_kept(tmp_path) -> None:
    from conftest import tiergit

    from tiergit.features import session
    from tiergit.shell import config

    repo = tmp_path
    import subprocess
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert tiergit(repo, "init", "--preset", "squad", "--no-install").returncode == 0
    cfg = config.load(repo)
    session.start(cfg, "picard", "Use Redis for the cache")
    hot = cfg.tier_file("hot", agent="picard")
    hot.write_text(hot.read_text() + "\n## Notes\n- [decision] Use Redis for the cache\n- Use Redis for the cache\n")
    result = session.end(cfg, "picard")
    assert "- [decision] Use Redis for the cache" in result.report["entry"]
    assert result.report["kept"] == 1
