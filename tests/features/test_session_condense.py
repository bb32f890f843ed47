"""How context is condensed: within the ratio of the session's own text, without repeating what
cold, the title or the kept items already say, and without losing news that only looks alike."""
from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from tiergit.core import hotfile, parse, sessiontext
from tiergit.features import compact
from tiergit.shell.tokens import count_text

ENC = "cl100k_base"


def doc(text: str) -> parse.MemoryDoc:
    return parse.parse(text, "hot.md")


def line_tokens(lines: list[str]) -> int:
    return sum(count_text(line + "\n", ENC).tokens for line in lines)


def test_context_cold_already_tells_is_not_repeated_but_a_new_number_is() -> None:
    cold = ("# Cold\n\n### 2026-05-13 · Track F\n<!-- s-000000001 -->\n\n"
            "- Track F: PR #1089 - Track F Commit 2: control-domain section grouping and render helpers …\n")
    news = "- PR #1090 - Track F Commit 3: control-domain section grouping and render helpers for tiers."
    notes = ("# Hot\n\n## Track F\n"
             # the same sentence, re-pasted with other punctuation and case
             "- PR #1089 - track F commit 2: control-domain section grouping, and render helpers (7/7 green).\n"
             # looks alike, but it is the next commit: specifics, kept verbatim
             f"{news}\n")
    result = compact.compact_doc(doc(notes), set(), cold_text=cold, ratio=1.0, overhead=0)
    assert result.duplicates == 1
    assert result.kept == [news]
    assert "PR #1089" not in result.body()


def test_a_sentence_that_only_repeats_the_title_and_kept_items_is_dropped() -> None:
    notes = ("# Hot\n\n## Notes\n- [decision] Cache token counts per blob id, not per path.\n"
             "- Cache token counts per blob id.\n"
             "- Measured the hook: 0.12 s median on 200 files.\n"
             "- Worked through the cache review with the team.\n"
             "- Cache token counts per blob id.\n")
    result = compact.compact_doc(doc(notes), set(), title="Token cache", ratio=1.0, overhead=0)
    assert result.kept == ["- [decision] Cache token counts per blob id, not per path.",
                           "- Measured the hook: 0.12 s median on 200 files."]
    text = "\n".join(result.condensed)
    assert "Worked through the cache review" in text and "Cache token counts" not in text


def test_condensed_lines_leave_out_field_labels_leading_dates_and_nested_markers() -> None:
    notes = ("# Hot\n\n## Windows fixes\n- **Context:** Worked through the review queue with the team.\n"
             "- 2026-04-21 — Looked at the dashboard again.\n"
             "- **2026-05-13** - Cleaned up the notes.\n")
    result = compact.compact_doc(doc(notes), set(), ratio=1.0, overhead=0)
    assert result.kept == []
    [line] = result.condensed
    assert line.startswith("- Windows fixes: Worked through the review queue with the team.")
    assert "Looked at the dashboard" in line and "Cleaned up the notes" in line
    assert "**" not in line and "Context" not in line and "2026-" not in line and "; -" not in line


def test_every_entry_keeps_one_line_a_topic_heading_alone_when_the_budget_is_spent() -> None:
    notes = "# Hot\n\n## Git Rebase for Doc Merges\n- Worked through the rebase with the team again today.\n"
    assert compact.compact_doc(doc(notes), set()).condensed == ["- Git Rebase for Doc Merges"]
    # A template section says nothing by itself: its first words come along.
    notes = "# Hot\n\n## Last actions\n- Ran the hook benchmark again and looked at the results once more.\n"
    assert compact.compact_doc(doc(notes), set()).condensed == ["- Last actions: Ran the hook benchmark again and …"]


def test_specifics_stay_verbatim_whatever_the_budget() -> None:
    # Issue 21: the cost of keeping a specific line is a few tokens; dropping it loses knowledge.
    notes = ("# Hot\n\n## Last actions\n- When rebasing doc PRs with conflicts from other branches, keep both.\n"
             "- Ran the hook benchmark: 0.12 s median on 200 files.\n")
    result = compact.compact_doc(doc(notes), set(), ratio=0.01)
    assert result.kept == ["- When rebasing doc PRs with conflicts from other branches, keep both.",
                           "- Ran the hook benchmark: 0.12 s median on 200 files."]


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
SENTENCE = st.lists(WORD, min_size=4, max_size=20).map(lambda ws: " ".join(ws).capitalize() + ".")
SECTION = st.tuples(st.lists(WORD, min_size=2, max_size=4).map(" ".join),
                    st.lists(SENTENCE, min_size=8, max_size=25))


@settings(max_examples=25, deadline=None)
@given(st.lists(SECTION, min_size=2, max_size=4), st.sampled_from([0.05, 0.10, 0.20]))
def test_condensed_lines_stay_within_the_ratio_of_the_sessions_own_text(sections, ratio) -> None:
    body = "".join(f"## {h}\n" + "".join(f"- {s}\n" for s in items) + "\n" for h, items in sections)
    hint = "<!-- one line each: what was decided and why; kept verbatim in cold -->\n" * 40
    top = "# Hot memory · picard\n\n"
    boilerplate = frozenset({top.strip()})
    plain = doc(top + body)
    result = compact.compact_doc(plain, set(), ratio=ratio, overhead=30, boilerplate=boilerplate)
    budget = ratio * count_text(sessiontext.own_text(plain.render(), boilerplate), ENC).tokens - 30
    spent = line_tokens(result.condensed)
    if len(result.condensed) > 1:   # beyond the one line every entry keeps, the budget holds
        assert spent <= budget + 1, (spent, budget)
    assert spent >= min(budget, line_tokens(result.condensed[:1])) * 0.6   # and it is used
    # Template hints (HTML comments) and headings are not session text: they earn no budget.
    hinted = doc(top + hint + body)
    assert compact.compact_doc(hinted, set(), ratio=ratio, overhead=30, boilerplate=boilerplate).condensed \
        == result.condensed


def test_entry_title_leaves_out_a_leading_date_that_repeats_the_entry_date() -> None:
    day = datetime(2026, 5, 13, 12, tzinfo=timezone.utc)
    assert hotfile.entry_title("2026-05-13 — #1056 triage verdict", day) == "#1056 triage verdict"
    assert hotfile.entry_title("2026-04-23 - Track F audit", day) == "2026-04-23 - Track F audit"
    assert hotfile.entry_title("2026-05-13", day) == "2026-05-13"


def notes_doc(text: str) -> parse.MemoryDoc:
    return parse.parse(text, "<session notes>", notes=True)   # as core/hotfile.notes_doc reads them


def test_session_notes_keep_a_paragraph_above_any_heading_and_a_block_quote() -> None:
    notes = ("13:56 Correction: the user trades mostly in Hong Kong, so analysis starts from the HK book.\n\n"
             "### Retry policy\n> When a fix merges to dev, label the issue `uat-ready` so QA picks it up.\n"
             "> Knowledge base for the team.\n")
    assert parse.parse(notes, "notes.md").items == []   # in a memory file: a preamble and a quoted aside
    result = compact.compact_doc(notes_doc(notes), set(), ratio=1.0, overhead=0)
    body = result.body()
    assert "13:56 Correction: the user trades mostly in Hong Kong, so analysis starts from the HK book." in body
    assert "When a fix merges to dev, label the issue `uat-ready` so QA picks it up." in body


def test_a_text_fence_in_the_notes_keeps_its_prose_and_drops_its_diagram() -> None:
    notes = ("# Hot\n\n## Fog of war\n```\nExploredTileCache must cache `structureType` with the terrain data.\n"
             "│ Client │───▶│ Server │\n```\n\n```csharp\npublic void SoftDelete() { DeletedAt = now; }\n```\n")
    result = compact.compact_doc(doc(notes), set(), ratio=1.0, overhead=0)
    assert result.kept == ["```\nExploredTileCache must cache `structureType` with the terrain data.\n```"]
    assert "SoftDelete" not in result.body() and "│" not in result.body()


def test_words_the_kept_items_share_in_another_order_are_news_not_a_duplicate() -> None:
    notes = ("# Hot\n\n## Review queue\n- #592: docs only, no tests needed\n- #567: 18 tests, all needed\n"
             "- #592 needed tests: 18 docs only, no\n- #567: 18 tests, all needed.\n")
    result = compact.compact_doc(doc(notes), set(), ratio=1.0, overhead=0)
    # the third item says other things with the same words; the fourth repeats the second word for word
    assert result.kept == ["- #592: docs only, no tests needed", "- #567: 18 tests, all needed",
                           "- #592 needed tests: 18 docs only, no"]
    assert result.duplicates == 1


DREAMING_NOTE = """# 2026-04-10

- 09:40 Sold 100 shares of `ACME` at 31.50, position now 700 shares.

## REM Sleep
<!-- openclaw:dreaming:rem:start -->
### Reflections
- Theme: `assistant` kept surfacing across 360 memories.
  - confidence: 1.00
  - evidence: memory/.dreams/session-corpus/2026-04-06.txt:2-2

### Possible Lasting Truths
- - 16:42 Bought back 100 shares of `ACME` at 30.50, cost basis 29.63.
<!-- openclaw:dreaming:rem:end -->

## Light Sleep
<!-- openclaw:dreaming:light:start -->
- Candidate: Naver polling API returns KRX quotes for `000660`.
  - confidence: 0.00
  - evidence: memory/2026-04-05.md:3-6

## Later
- The broker caps intraday orders at 20 a day, so batch the rebalancing.
"""


def test_a_dreaming_report_in_the_notes_is_dreamings_copy_not_the_sessions_text() -> None:
    from tiergit.core import dreams
    lines = DREAMING_NOTE.splitlines()
    inside = dreams.report_lines(DREAMING_NOTE)
    assert {lines[n - 1] for n in inside} >= {"- - 16:42 Bought back 100 shares of `ACME` at 30.50, cost basis 29.63.",
                                                "- Candidate: Naver polling API returns KRX quotes for `000660`."}
    # an unclosed report ends at the note's own next heading
    assert not any(lines[n - 1].startswith(("## Later", "- The broker")) for n in inside)
    body = compact.compact_doc(notes_doc(DREAMING_NOTE), set(), ratio=1.0, overhead=0).body()
    assert "09:40 Sold 100 shares of `ACME` at 31.50" in body
    assert "The broker caps intraday orders at 20 a day, so batch the rebalancing." in body
    assert "Bought back 100 shares" not in body and "kept surfacing" not in body and "Naver" not in body
    # a start with no end covers only the lines in Dreaming's shape after it
    unclosed = "<!-- openclaw:dreaming:light:start -->\n- Candidate: a copy\n  - confidence: 0.1\n\nOwn line after it.\n"
    assert dreams.report_lines(unclosed) == frozenset({1, 2, 3, 4})


def test_a_sub_heading_that_names_something_is_shown_above_what_is_kept_under_it() -> None:
    # Round 9: `### REC-5: `helix_status` — …` was dropped while the problem under it was kept, so cold held
    # "Exit codes mean different things" with nothing saying of which tool.
    notes = ("## 2026-03-01: Tool review\n\n### REC-7: `ledger_sync` — Retry only idempotent calls (P1)\n\n"
             "**Problem:** a retried POST books the payment twice, because the gateway has no idempotency key.\n\n"
             "### Session: 2026-05-17 15:28:31 GMT+8\n\n- The cache key must include the tenant id.\n\n"
             "### REC-8: `ledger_export` — Stream large exports\n\n- Ran the tests again.\n\n"
             "### Notes\n\n- Exports over 10k rows time out at 30 s.\n")
    out = compact.compact_doc(parse.parse(notes, notes=True), set(), cold_text="")
    body = out.body()
    shown = "**REC-7: `ledger_sync` — Retry only idempotent calls (P1)**"
    assert body.index(shown) < body.index("**Problem:** a retried POST")
    assert "Session: 2026-05-17" not in body.split("- The cache key")[0]   # a session stamp is no subject
    assert "REC-8" not in body.split("- Exports over")[0]   # nothing kept under it: not shown above another's item
    assert len(out.kept) == 3   # a shown heading is no kept item
    again = compact.compact_doc(parse.parse(notes, notes=True), set(), cold_text=body)
    assert shown not in again.body()   # cold shows it already
