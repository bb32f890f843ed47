"""Parsing memory files: headings via a real markdown parser, entries, pinned and log
sections, item kinds (DESIGN.md's table), ids, ages, and lossless rendering."""
from __future__ import annotations

import os
import time
from datetime import date

import pytest
from conftest import git, write

from tiergit.core import kinds, parse, rawtext
from tiergit.errors import InputError
from tiergit.features import age

DOC = """\
---
agent: picard
---
# Picard

## Core Context

- [fact] The API is versioned by path. ^m-3f9a1c2b
- **Pattern:** retries use exponential backoff

```bash
# a shell comment, not a heading
## nor this
```

## Learnings

- 2026-04-22 — Added a retry to the poller
- 2026-04-23 — [correction] owner says duplicates get 200, not 409
- 2026-04-25 — **Decision:** freeze the v2 fields
- an undated note

### Fix token cache (2026-05-01)

**Root cause:** stale entries survived a deploy

#### Details

- [ ] follow up on the cache metrics
- User: what happened to the cache?

### 2026-05-03: Release day

- [permission] may merge Renovate PRs
"""


def test_render_is_lossless_and_metadata_is_read():
    doc = parse.parse(DOC, "picard.md")
    assert doc.render() == DOC
    assert doc.metadata == {"agent": "picard"}
    assert doc.frontmatter_text == "---\nagent: picard\n---\n"


def test_hash_inside_a_code_fence_is_never_a_heading():
    doc = parse.parse(DOC, "picard.md")
    headings = [s.heading for s in doc.sections]
    assert "a shell comment, not a heading" not in headings and "nor this" not in headings
    core = next(s for s in doc.sections if s.heading == "Core Context")
    assert "## nor this" in core.text
    fence = [i for i in core.items if i.text.startswith("```")]
    assert len(fence) == 1 and fence[0].kind == "log"


def test_entries_pinned_and_nested_headings():
    doc = parse.parse(DOC, "picard.md")
    assert doc.entry_level == 3
    assert [e.heading for e in doc.entries] == ["Fix token cache (2026-05-01)", "2026-05-03: Release day"]
    assert [e.date for e in doc.entries] == [date(2026, 5, 1), date(2026, 5, 3)]
    assert [p.heading for p in doc.pinned] == ["Picard", "Core Context", "Learnings"]
    fix = doc.entries[0]
    # The nested "#### Details" heading and its items belong to the dated entry.
    assert "#### Details" in fix.text
    assert [i.kind for i in fix.items] == ["error", "open", "log"]


def test_entry_level_is_the_shallowest_dated_heading_level():
    text = "# Atlas\n\n## Core Context\n\n### Shipped (2026-04-19)\n\n- x\n\n" \
           "## 2026-04-21 - Research\n\n### Verdict\n\n- go\n\n## 2026-05-13 — Audit\n\n- done\n"
    doc = parse.parse(text, "atlas.md")
    assert doc.entry_level == 2
    assert [e.heading for e in doc.entries] == ["2026-04-21 - Research", "2026-05-13 — Audit"]
    # The dated ### under the undated "## Core Context" is part of that pinned section.
    assert [p.heading for p in doc.pinned] == ["Atlas", "Core Context"]
    assert "### Shipped (2026-04-19)" in doc.pinned[1].text
    assert "### Verdict" in doc.entries[0].text
    assert doc.render() == text


def test_file_without_dated_headings_is_all_pinned():
    doc = parse.parse("# Ralph\n\n## Learnings\n\n- one\n\n### Habits\n\n- two\n", "r.md")
    assert doc.entry_level is None and doc.entries == []
    assert [p.heading for p in doc.pinned] == ["Ralph", "Learnings"]


def test_log_section_is_an_undated_section_of_dated_items():
    doc = parse.parse(DOC, "picard.md")
    learnings = next(s for s in doc.sections if s.heading == "Learnings")
    assert learnings.pinned and learnings.is_log_section
    assert [i.date for i in learnings.items] == [date(2026, 4, 22), date(2026, 4, 23), date(2026, 4, 25), None]
    core = next(s for s in doc.sections if s.heading == "Core Context")
    assert not core.is_log_section


def test_dated_log_items_are_classified_by_what_follows_the_date():
    doc = parse.parse(DOC, "picard.md")
    learnings = next(s for s in doc.sections if s.heading == "Learnings")
    assert [i.kind for i in learnings.items] == ["context", "correction", "decision", "context"]


@pytest.mark.parametrize("line,kind", [
    ("- [decision] use postgres", "decision"), ("**Decision:** use postgres", "decision"),
    ("- **What:** use postgres", "decision"),
    ("- [rule] y", "rule"), ("**Pattern:** retry", "rule"), ("- **Key lesson:** a", "rule"),
    ("- **Lesson:** b", "rule"), ("- **Convention:** c", "rule"), ("- [preference] plain css", "rule"),
    ("- [fact] x", "fact"), ("- **Fact:** d", "fact"), ("**Constraint:** e", "fact"),
    ("- [correction] no", "correction"), ("**Correction:** f", "correction"),
    ("- [permission] may merge", "permission"), ("- **Approved:** deploy", "permission"),
    ("- **Denied:** prod access", "permission"),
    ("- [error] boom", "error"), ("**Root cause:** stale", "error"), ("**Fix:** restart", "error"),
    ("- [todo] docs", "open"), ("- [blocker] db down", "open"), ("- [ ] open box", "open"),
    ("- just a note", "context"), ("User: hello", "log"), ("- Assistant: hi", "log"),
    ("```\nlog output\n```", "log"),
])
def test_kinds_follow_the_design_table(line, kind):
    assert kinds.classify(line) == kind
    assert (kind in kinds.DURABLE_KINDS) == (kind in {"decision", "rule", "fact", "correction"})


@pytest.mark.parametrize("heading,kind", [("Active decisions", "decision"), ("Blockers", "open"),
                                          ("Current task", "open")])
def test_hot_sections_give_their_items_a_kind(heading, kind):
    doc = parse.parse(f"# Hot\n\n## {heading}\n\n- plain text item\n", "hot.md")
    assert doc.sections[-1].items[0].kind == kind


# Labels as the real Squad histories write them (corpus/*/.squad/agents/*/history.md, decisions.md).
@pytest.mark.parametrize("line,kind", [
    ("- **Learning:** x", "rule"), ("- **Key learning:** x", "rule"), ("**Learnings:**", "rule"),
    ("**Key Lessons Learned:** x", "rule"), ("- **Key lessons:** x", "rule"), ("**Lessons:** x", "rule"),
    ("**Pattern identified:** x", "rule"), ("- **Key patterns identified:** x", "rule"),
    ("- **Pattern for future triage:** x", "rule"), ("**Patterns noted:** x", "rule"),
    ("**Fix pattern:** x", "rule"), ("**Anti-pattern:** x", "rule"), ("5. **Anti-patterns:** x", "rule"),
    ("**Rule:** x", "rule"), ("**Key insight:** x", "rule"),
    ("**Key decisions:** x", "decision"), ("- **Key decision:** x", "decision"),
    ("**Decision ratified:** x", "decision"), ("**Decisions**: x", "decision"),
    ("**Root Causes:** x", "error"), ("**ROOT CAUSE:** x", "error"), ("**Root cause identified:** x", "error"),
    ("**Root cause (dominant):** x", "error"), ("**Problem:** x", "error"), ("**Solution:** x", "error"),
    ("**Solution (belt-and-suspenders isolation):**", "error"), ("**Fixes:**", "error"),
    ("- **Fix 1 — Stderr leak:** x", "error"), ("**Fix 2: Top-and-Bottom Reinforcement (P0)**", "error"),
    ("- 2026-04-23 — **Key learning:** x", "rule"), ("- **2026-04-23** **Problem:** x", "error"),
])
def test_real_label_variants_match_by_leading_words(line, kind):
    assert kinds.classify(line) == kind


@pytest.mark.parametrize("line", [
    "**Context:** x", "**Status:** x", "- **Why:** x", "**Why this matters:** x", "**PR:** #12",
    "**Task:** x", "**Rationale:** x", "**Verdict:** x", "**Key findings:**", "**Key file:** x",
    "**Issue:** x", "**RuleId:** x", "**Root pollution to fix**: x", "**Preflight job pattern:** x",
    # No colon: bold emphasis, not a label.
    "4. **Decision template** — inline markdown", "**Surgeon owns all publishing.** x",
    # A question word asks a question: `**What:**` (a decision field) matches only itself.
    "**What went wrong:** x", "**What changed:** x",
])
def test_other_labels_stay_context(line):
    assert kinds.classify(line) == "context"


def test_the_entry_with_most_words_wins():
    assert kinds.classify("**Fix:** x") == "error"
    assert kinds.classify("**Fix pattern:** x") == "rule"
    assert kinds.classify("**Fix patterns:** x") == "rule"


def test_configured_labels_extend_the_vocabulary():
    labels = {"rule": ["**Tip:**"]}
    assert kinds.classify("- **Tip:** the weekly report goes out on Mondays", labels=labels) == "rule"
    assert kinds.classify("- **Key tips:** the weekly report goes out on Mondays", labels=labels) == "rule"
    # Without the label it is plain context (an imperative would be a rule by its wording).
    assert kinds.classify("- **Tip:** the weekly report goes out on Mondays") == "context"


def test_configured_labels_replace_a_kind_and_override_defaults():
    # A kind listed in `labels:` replaces that kind's default list.
    only_tips = {"rule": ["[rule]", "**Tip:**"]}
    assert kinds.classify("**Learning:** x", labels=only_tips) == "context"
    assert kinds.classify("- [rule] x", labels=only_tips) == "rule"
    assert kinds.classify("**Decision:** x", labels=only_tips) == "decision"
    # A longer configured label beats a default one; on a tie the configured label wins.
    labels = {"context": ["**Decision file:**", "**Fixes:**"], "fact": ["**Fix:**"]}
    assert kinds.classify("- **Decision file:** inbox/x.md", labels=labels) == "context"
    assert kinds.classify("- **Decision file:** inbox/x.md") == "decision"
    assert kinds.classify("**Fixes:** #1, #2", labels=labels) == "context"
    assert kinds.classify("**Fix:** x", labels=labels) == "fact"
    assert kinds.classify("**Fix pattern:** x", labels=labels) == "rule"


def test_never_compress_and_durable_flags():
    assert kinds.NEVER_COMPRESS == {"decision", "correction", "permission", "error", "open"}
    assert kinds.DURABLE_KINDS == {"decision", "rule", "fact", "correction"}


def test_explicit_block_id_wins_and_hash_ids_ignore_whitespace():
    assert parse.item_id("- [fact] The API is versioned. ^m-3f9a1c2b") == ("m-3f9a1c2b", True)
    a, explicit = parse.item_id("- [fact] The API   is\n  versioned by path.")
    b, _ = parse.item_id("-   [fact]   The API is versioned by path.  ")
    assert not explicit and a == b and a.startswith("m-") and len(a) == 10
    assert parse.item_id("- [fact] The API is versioned by header.")[0] != a
    # The block id is not part of the clean text.
    assert parse.clean_text("- [fact] x y ^m-3f9a1c2b") == "x y"


def test_ids_are_stable_when_a_file_is_reflowed():
    one = parse.parse("## Notes\n\n- **Pattern:** retry with backoff\n  and jitter\n", "a.md")
    two = parse.parse("## Notes\n\n- **Pattern:**   retry with backoff and jitter\n", "a.md")
    assert one.items[0].id == two.items[0].id


@pytest.mark.parametrize("text,code,line", [
    ("---\nagent: [unclosed\n---\n# x\n", "FM001", 3),
    ("---\nagent: x\n# no closing line\n", "FM001", 1),
    ("---\n- a list\n---\n# x\n", "FM001", 2),
    ("---\na: &x [1]\nb: *x\n---\n", "FM001", 3),
])
def test_malformed_frontmatter_raises_input_error_with_line(text, code, line):
    with pytest.raises(InputError) as info:
        parse.parse(text, "hot/picard.md")
    assert info.value.code == code and info.value.line == line
    assert info.value.message.startswith(f"hot/picard.md:{line}: FM001")
    assert info.value.hint


def test_decode_refuses_binary_bad_utf8_and_oversized():
    with pytest.raises(InputError) as e1:
        rawtext.decode(b"PNG\x00\x01\x02", "a.md")
    assert e1.value.code == "TG001"
    with pytest.raises(InputError) as e2:
        rawtext.decode(b"line one\nline two \xff\xfe\n", "a.md")
    assert e2.value.code == "TG002" and e2.value.line == 2
    with pytest.raises(InputError) as e3:
        rawtext.decode(b"x" * 101, "a.md", max_bytes=100)
    assert e3.value.code == "TG003" and "101 bytes" in e3.value.detail
    assert rawtext.decode("é\n".encode(), "a.md") == "é\n"


def test_transcript_lines_outside_fences_only():
    text = "User: hi\n```\nAssistant: inside a fence\n```\n- **Assistant:** hello\n"
    assert rawtext.has_transcript(text) == [1, 5]


# --- ages ---------------------------------------------------------------------------

AGED = """\
# Osei

## Learnings

- 2026-04-18 — [fact] PostGIS geometry beats geography here

## Notes

- an undated note
- another undated note

### Ingestion rewrite (2026-04-25)

- **Decision:** enqueue raw payloads
"""


def test_item_age_pure_order():
    doc = parse.parse(AGED, "osei.md")
    learn, notes, entry = doc.sections[1], doc.sections[2], doc.sections[3]
    blame = {9: date(2026, 1, 2)}
    mtime = date(2026, 3, 3)
    assert age.item_age(learn, learn.items[0], blame, mtime) == age.Age(date(2026, 4, 18), "item")
    assert age.item_age(entry, entry.items[0], blame, mtime) == age.Age(date(2026, 4, 25), "heading")
    assert age.item_age(notes, notes.items[0], blame, mtime) == age.Age(date(2026, 1, 2), "blame")
    assert age.item_age(notes, notes.items[1], blame, mtime) == age.Age(date(2026, 3, 3), "mtime")
    assert age.item_age(notes, notes.items[1]) is None


def test_doc_ages_in_a_real_repo_uses_blame_then_mtime(repo):
    rel = ".squad/memory/cold/osei.md"
    path = write(repo / rel, AGED)
    git(repo, "add", rel)
    git(repo, "commit", "-q", "-m", "cold", env={"GIT_AUTHOR_DATE": "2026-02-03T10:00:00+00:00"})
    # One more undated line, not committed: blame gives it no commit, so it is today's.
    path.write_text(AGED.replace("- another undated note\n", "- another undated note\n- brand new\n"))
    old = time.mktime((2026, 3, 4, 12, 0, 0, 0, 0, -1))
    os.utime(path, (old, old))
    doc = parse.parse(path.read_text(), rel)
    ages = age.doc_ages(repo, rel, doc)
    by_text = {i.clean.split("] ")[-1]: ages[i.id] for i in doc.items}
    assert by_text["PostGIS geometry beats geography here"] == age.Age(date(2026, 4, 18), "item")
    assert by_text["**Decision:** enqueue raw payloads"] == age.Age(date(2026, 4, 25), "heading")
    assert by_text["an undated note"] == age.Age(date(2026, 2, 3), "blame")
    assert by_text["brand new"].source == "blame" and by_text["brand new"].date >= date(2026, 1, 1)

    # An untracked file has no blame: the mtime is the age.
    other = write(repo / ".squad/memory/cold/new.md", "## Notes\n\n- fresh note\n")
    os.utime(other, (old, old))
    doc2 = parse.parse(other.read_text(), "x")
    ages2 = age.doc_ages(repo, ".squad/memory/cold/new.md", doc2)
    assert list(ages2.values()) == [age.Age(date(2026, 3, 4), "mtime")]
