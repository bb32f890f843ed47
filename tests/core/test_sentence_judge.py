"""The sentence judgement's round-5 shapes (issue 21): counts are specifics, a status that leaves
something open is an open item, a report that names what changed is kept, a code comment is a
sentence. Sentences written for these tests in the shapes of real notes, not copied from the corpus."""
from __future__ import annotations

import pytest

from tiergit.core import sentence_judge as sj

KEPT = [
    "- All 1,204 tests pass (the two GPU suites skipped on the CI runner)",
    "- 212/212 checks green after the schema bump",
    "- ✓ Review round closed (5 cycles, every comment answered before the merge)",
    "**Status:** Proposed — waiting on the platform team's sign-off",
    "- **Status:** Blocked until the quota increase lands",
    "- status: pending review by the owner",
    "- 监控项 `vector-db` 已加入 watchlist.yaml（优先级 P1）",
    "/// Returns the cached token when it has more than five minutes left.",
    "// Keep the lock until the write is flushed, or the reader sees half a file.",
]
NOISE = [
    "- All tests pass ✅",
    "- Build clean: 0 errors, 0 warnings",
    "- ✅ Parser behaviour validated with tests",
    "- **Status:** Complete",
    "- status: staged",
    "- recalls: 0",
    "- 监控项: 今日无新进展",
    "- P1: retrieval / rerank / ColBERT — 今日无新进展",
    "// x = compute(y);",
    "/// <summary>",
]


@pytest.mark.parametrize("sentence", KEPT)
def test_kept_verbatim(sentence: str) -> None:
    assert sj.noise(sentence) is None


@pytest.mark.parametrize("sentence", NOISE)
def test_condensed_as_noise(sentence: str) -> None:
    assert sj.noise(sentence)


def test_a_doc_comment_inside_prose_is_a_sentence_of_its_own() -> None:
    text = "Okay, moving on. /// Clears the deletion stamp so the goal shows up again. Sounds good."
    kept, rest = sj.split(text)
    assert kept == "/// Clears the deletion stamp so the goal shows up again."
    assert "Okay, moving on." in rest


def test_fence_comments_keep_only_prose_comments_in_the_blocks_language() -> None:
    block = ("```csharp\n/// <summary>\n/// Restores the archived budget by clearing its deletion stamp.\n"
             "/// </summary>\npublic void Restore() { DeletedAt = null; }\n// ok\n```\n")
    assert sj.fence_comments(block) == "```csharp\n/// Restores the archived budget by clearing its deletion stamp.\n```"
    assert sj.fence_comments("```\nnpm test\n```") == ""
    assert sj.fence_comments("```markdown\n# Heading of a doc\n```") == ""
    assert sj.fence_comments("- not a fence") == ""
