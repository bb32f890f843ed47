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


# Round 6: shapes of noise seen in the tuned parts (a stamp, a header row, Dreaming's copy of a chat turn,
# a verbless past-tense report), and the look-alikes that must stay kept.
KEPT_ROUND6 = [
    "- ✅ Expired sessions are purged on the next login (the sweeper no longer runs at boot)",
    "**Deadline:** 2026-09-30",
    "- Scheduled: 2026-10-02 14:00",
    "| 2 | Rotate the signing key | Medium | High |",
    "Moved the helpers to src/app/utils",
    "Merged the v2/legacy branches before the freeze",
    "Cached tokens expire after the first refresh failure",
    "Shared worker pool already exists.",
]
NOISE_ROUND6 = [
    "**Compiled by Scribe:** 2026-03-14T09:12:00Z",
    "- Last updated: 2026-03-14 09:12",
    "| Step | Owner | Result | Notes |",
    "| 名称 | 状态 | 负责人 |",
    "- Candidate: Assistant: NO_REPLY",
    "- Candidate: User: [Tue 2026-04-21 09:00 GMT+8] are you there?",
    "- Candidate: Reflections: Theme: `assistant` kept surfacing across 120 memories.",
    "Streamlined onboarding flow across web/mobile.",
    "Refactored pathfinding for speed.",
]
# Round 7: a header row with a `#` column or a unit sign on a label, a lead-in with only its list's first number.
NOISE_ROUND7 = [
    "| # | Step | Owner | Notes |",
    "| 代码 | 成本 | 现价 | 浮% | 浮$ |",
    "**Steps Taken:** 1.",
    "System (untrusted): [2026-04-24 00:31:12 GMT+2] Exec completed (quick-fox, code 0) :: `minio` metrics",
    "Sender (untrusted metadata):",
    "**周报整理** ✅ 已完成",
    "- 完成了部署脚本的整理",
]
KEPT_ROUND7 = [
    "- **Open findings:** 3",
    "- VISION_RADIUS: 8",
    "| 3 | Rotate the signing key | High | Medium |",
    "System prompts (the long ones) must stay under 8 KB or the gateway truncates them.",
    "- [ ] 完成回调节点开发",
    "- 部署已完成，但回滚脚本失败，原因未知",
    "- 优先级: 本周完成",
]

# Round 9 (stop 34, written from round 8's sample once it was declared tuned): code lines outside a fence
# (a variable statement calling a member, a declaration's head, a shell test, a condition's continuation, a
# parameter), bookkeeping fields, a chat envelope's tag; and the look-alikes that must stay kept.
NOISE_ROUND9 = [
    "### 2026-03-02 — Retrospective: Import Phase Complete",
    "## OpenClaw Upgrade",
    "# MEMORY.md (Long-term)",
    "**Context:**",
    "**Recommended addition to the description:**",
    "uv sync --frozen --no-dev",
    "Current time: Tuesday, May 5th, 2026 - 9:12 AM (Europe/Berlin) / 2026-05-05 07:12 UTC",
    "const report = await store.audit.summary();",
    "public sealed class LedgerImportTests",
    "if [ -f /etc/app/config.yml ]; then",
    "&& entry.Schedule.NextRunAt > cutoff",
    "LedgerScope scope,",
    "**Branch:** `feature/81-ledger-import`",
    "**Phase**: Import review",
    "[Untrusted daily memory: memory/2026-05-02.md]",
    "[Subagent Task]: Summarise the release notes of the new gateway build.",
]
KEPT_ROUND9 = [
    "### REC-7: `ledger_sync` — Retry only idempotent calls (P1)",
    "### Never force-push to `main`",
    "**Option B (smallest change): Raise MAX_IMPORT_ROWS to 5000**",
    "uv is copied from its official image — never installed in the layer.",
    "make sure the lock is held before the write",
    "Use the ledger's own retry policy.",
    "If the import fails, rerun it with `--resume`.",
    "Return early when the cache is warm, or the import stalls.",
    "public string LedgerId { get; set; } = string.Empty;",
    "**Owner of this branch:** Restore the guards before committing",
    "**Branch protection:** main needs two approvals before a merge",
]


@pytest.mark.parametrize("sentence", KEPT + KEPT_ROUND6 + KEPT_ROUND7 + KEPT_ROUND9)
def test_kept_verbatim(sentence: str) -> None:
    assert sj.noise(sentence) is None


@pytest.mark.parametrize("sentence", NOISE + NOISE_ROUND6 + NOISE_ROUND7 + NOISE_ROUND9)
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


def test_a_tree_branch_under_a_line_does_not_pull_the_line_into_a_diagram() -> None:
    item = "- Book total: **HKD -3,789** (HK leg -HKD 6,579 + US leg +$358)\n  ├─ HK leg: HKD 81,697\n  └─ US leg: USD 3,170"
    kept, rest = sj.split(item)
    assert "Book total: **HKD -3,789**" in kept
    assert "├─" not in kept and "├─" in rest


def test_a_numbered_step_comment_in_a_script_is_kept_with_its_number() -> None:
    block = "```bash\n# 1. Install jq if missing (needed to edit the JSON safely)\nsudo apt install -y jq\n# 2.\n```"
    assert sj.fence_comments(block, prose=True) == "```bash\n# 1. Install jq if missing (needed to edit the JSON safely)\n```"


def test_one_slash_between_plain_words_is_no_path_but_a_real_path_is() -> None:
    assert not sj.PATH.search("the read/write paths") and not sj.PATH.search("across server/client.")
    for path in ("src/app/utils", "~/bin", "/tmp", "scripts/maintain.sh", "v2/legacy", "foo_bar/baz"):
        assert sj.PATH.search(f"moved to {path} today"), path


def test_a_text_fence_in_notes_keeps_its_prose_lines_not_its_diagram_or_a_terminal_session() -> None:
    block = ("```\nThe tile cache must store `structureType` with the terrain, or fog hides built walls.\n"
             "┌──────────┐\n│ Client   │───▶ server\n└──────────┘\n```\n")
    assert sj.fence_comments(block, prose=True) == (
        "```\nThe tile cache must store `structureType` with the terrain, or fog hides built walls.\n```")
    assert sj.fence_comments(block) == ""   # a transcript's fence: code or tool output
    assert sj.fence_comments("```\n$ pytest -q\n.......... 10 passed in 0.41s\n```", prose=True) == ""
    assert sj.fence_comments("```console\nRetries are capped at 5 because the queue backs off.\n```", prose=True) == ""
    assert sj.noise("│ Path 2: Container escape (e.g. a search-engine RCE) │") == "a line of a box diagram"


# A sentence that only announces the lines under it; one that names something or carries a marker is kept.
@pytest.mark.parametrize("sentence", [
    "Add a new setting for the scheduler:",
    "**Possible follow-ups** (not for this sprint):",
    "- Here is what changed in the layout:",
])
def test_a_lead_in_that_names_nothing_is_noise(sentence: str) -> None:
    assert sj.noise(sentence) == "a lead-in to what follows"


@pytest.mark.parametrize("sentence", [
    "Add `RetryPolicy` in `src/net/client.ts`:",
    "**Fix:** Rebuild the search index after every schema change:",
    "**Rule:** Handlers must never swallow an error without:",
    "The nightly workflow runs on every push to `main` and takes ~40 minutes:",
    "Set the pool size to 16:",
    "Quoted as \"retry storm\" in the postmortem:",
    "原因如下：",
])
def test_a_lead_in_that_names_or_rules_something_is_kept(sentence: str) -> None:
    assert sj.noise(sentence) is None


# "Noise by weight" (docs/judge.md): each shape beside a near miss that must stay kept. Written for the tests.
@pytest.mark.parametrize("sentence, why", [
    ("A background job you started earlier has finished.", "a runtime's notice to the agent"),
    ("The output is shown in the system messages above.", "a runtime's notice to the agent"),
    ("Please relay the tool output to the user in a friendly way.", "a runtime's notice to the agent"),
    ("END_WRAPPED_CONTEXT", "a wrapper's begin/end marker"),
    ("**Cleanup Info**: 2026-02-03 — 2nd weekly sweep.", "a metadata / status line"),
    ("**Type:** Backend Refactor", "a metadata / status line"),
    ("- 记录时间：2026-02-03 09:15 (Europe/Berlin)", "a date stamp"),
    ("- Rebased onto `main` (3fa9c21), force-pushed", "git bookkeeping"),
    ("- PR #41 (Dana, retry cleanup): APPROVE & MERGE ✅", "a review verdict"),
    ("| Api | `InvoiceMapperTests.cs` | Kim | 12 | ✅ PASS |", "a test-results row (tool output)"),
    ("**Step 3: Preview Panel**", "a heading"),
    ("- ✅ Final sign-off (Week 2)", "a status line"),
    ("We'll ping the channel, then rerun the job, then look at the dashboard.", "chatter"),
    ("All linked tickets closed.", "an activity report with nothing specific"),
    ("Ready to start implementation next sprint.", "an activity report with nothing specific"),
])
def test_noise_by_weight_shapes(sentence: str, why: str) -> None:
    assert sj.noise(sentence) == why


@pytest.mark.parametrize("sentence", [
    "If the export fails, explain the rollback to the user before retrying.",   # an instruction, not the notice
    "`END_OF_BATCH` marks the last record; the reader stops there.",             # a marker named in prose
    "**Cleanup Info**: 2026-02-03 — sweep failed because the lock was held.",     # a stamp with its cause
    "**Deadline:** 2026-09-30",                                                   # a due date
    "- 截止日期：2026-09-30",                                                      # a due date in Chinese
    "**Category:** `Throttling` (split from `RateLimit`)",                          # names code
    "- Rebased onto `main` (3fa9c21) because the release branch was cut early",   # carries its cause
    "- PR #41: APPROVE — but the retry loop must go before release",              # a verdict with a condition
    "| Api | `InvoiceMapperTests.cs` | Kim | 12 | flaky on Windows, quarantined |",  # a finding, not a verdict
    "**Step 3: Set `MAX_BATCH` to 500**",                                         # a step that names code
    "**Option C (least invasive): Raise MAX_ROWS to 3**",                         # an option, not a numbered step
    "We'll never deploy on a Friday.",                                            # a rule, not chatter
    "A documented process without enforcement gets skipped under pressure.",     # a lesson; "documented" mid-sentence
    "Docs confirm only 2 user-facing settings exist:",                            # a lead-in with a count stays kept
])
def test_noise_by_weight_near_misses_are_kept(sentence: str) -> None:
    assert sj.noise(sentence) is None


def test_a_wrapper_marker_and_an_envelope_tag_do_not_glue_to_the_note_they_wrap() -> None:
    text = "END_WRAPPED_NOTES\n[Untrusted daily memory: memory/2026-02-03.md]\nBEGIN_WRAPPED_NOTES"
    assert [body for _, body in sj.units(text)] == [
        "END_WRAPPED_NOTES", "[Untrusted daily memory: memory/2026-02-03.md]", "BEGIN_WRAPPED_NOTES"]
    assert all(sj.noise(body) for _, body in sj.units(text))
