"""Issue 21, keep what matters: knowledge written in plain language survives `session end` and
`transcript compact` verbatim, with the right kind; only recognisable noise is condensed.

The notes below were written for these tests in the shapes of real Squad and OpenClaw notes
(root causes of 300-1,000 characters, numbered bold-lead rules, owners' corrections); the corpus
checks at the end run the labelled real sentences (tests/labels/sentences_corpus.tsv).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import sentence_eval as se
from conftest import CORPUS, tiergit
from session_helpers import squad_store  # noqa: F401

from tiergit.core import chatlog, kinds, parse, sentence_judge
from tiergit.features import compact, session, transcript
from tiergit.shell import config

HOT = ".squad/memory/hot/picard.md"
COLD = ".squad/memory/cold/picard.md"
SECTIONS = ("Current task", "Active decisions", "Last actions", "Blockers", "Talking to")

# Real-shaped error notes: a cause and a fix in one long plain item, no label.
ERROR_NOTES = [
    "- The 401s on the nightly sync came from the token cache: `TokenStore.get()` keyed entries by the "
    "tenant name, so after the Contoso tenant was renamed to Contoso-EU the old token was served until it "
    "expired after 60 minutes. Keying by the tenant id (`tid` claim) fixed it; the renamed tenant now gets "
    "a fresh token on the first call and the sync succeeds.",
    "- Root cause of the flaky `ImportTests.LargeFile` run on Windows: the test wrote a 40 MB fixture to "
    "`%TEMP%` and the antivirus scanner held the file open for up to 3 seconds after the write, so the "
    "importer's exclusive open failed with `IOException: The process cannot access the file because it is "
    "being used by another process`. We now write the fixture under the repo's `artifacts/` folder, which "
    "is excluded from scanning, and retry the open three times with a 500 ms back-off; the test has passed "
    "200 runs in a row on the Windows runner since.",
    "- Builds on the `macos-14` runner failed at the link step with `ld: warning: ignoring duplicate "
    "libraries: '-lc++'` turned into an error by `-Werror`, because Xcode 15's new linker reports "
    "duplicate libraries where the old one stayed silent. Both the vendored `libgit2` build and our own "
    "CMake target added `-lc++`; removing it from ours (the vendored one needs it) made the link clean. "
    "If the runner image moves to Xcode 16 we should check again: the same warning class was widened "
    "there, and the `-Wl,-no_warn_duplicate_libraries` flag is the documented escape hatch if we cannot "
    "remove the duplicate at its source. Until then, do not add `-Werror` to the linker flags of any new "
    "target without running the macOS job first.",
]
BOLD_RULES = [
    "6. **Prefer StorageV2 over Storage** — always use the V2 client for blobs; the V1 client has no retry policy.",
    "7. **Never hand-edit `decisions.md`** — Scribe merges the inbox; edits there are lost on the next merge.",
    "8. **Owner of this branch:** Restore the guards before committing",
]
DECISION_CORRECTIONS = [
    ("- No — we use Bicep, not ARM templates, for every new resource.", "correction"),
    ("- Actually, the label trigger must be `squad:triage`, not `triage`.", "correction"),
    ("- You may force-push to feature branches, never to `main`.", "permission"),
    ("- Use the blob id as the cache key.", "decision"),
]


def _fold(text: str) -> str:
    return " ".join(text.split())


def _end(repo: Path, notes_by_section: dict[str, list[str]]) -> tuple[str, parse.MemoryDoc]:
    cfg = config.load(repo)
    session.start(cfg, "picard", "Keep what matters")
    hot = repo / HOT
    text = hot.read_text()
    for heading, lines in notes_by_section.items():
        text = text.replace(f"## {heading}\n", f"## {heading}\n" + "".join(f"{ln}\n" for ln in lines), 1)
    hot.write_text(text)
    proc = tiergit(repo, "session", "end", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    cold = (repo / COLD).read_text()
    return cold, parse.parse(cold, COLD)


@pytest.mark.parametrize("section", SECTIONS)
def test_long_error_notes_under_every_hot_section_are_kept_verbatim_as_errors(squad_store: Path, section) -> None:
    assert all(300 <= len(n) <= 1000 for n in ERROR_NOTES)
    cold, doc = _end(squad_store, {section: ERROR_NOTES})
    folded = _fold(cold)
    for note in ERROR_NOTES:
        body = re.sub(r"^- ", "", note)
        assert _fold(body) in folded, f"{section}: lost {note[:60]}"
    # The kind: an error by its words wherever it sits (a blocker under Blockers: still open work).
    expected = "open" if section in ("Blockers",) else "error"
    found = {i.kind for i in doc.items if any(_fold(re.sub(r"^- ", "", n))[:80] in _fold(i.text) for n in ERROR_NOTES)}
    assert found == {expected} or (section == "Current task" and found <= {"error", "open"}), (section, found)


def test_numbered_bold_lead_rules_keep_their_rule(squad_store: Path) -> None:
    assert [kinds.classify(line) for line in BOLD_RULES[:2]] == ["rule", "rule"]
    cold, _ = _end(squad_store, {"Last actions": BOLD_RULES})
    for line in BOLD_RULES:
        assert line in cold   # verbatim, the bold lead included


def test_a_correction_and_a_permission_under_active_decisions_keep_their_own_kind(squad_store: Path) -> None:
    cold, doc = _end(squad_store, {"Active decisions": [line for line, _ in DECISION_CORRECTIONS]})
    by_text = {i.clean: i.kind for i in doc.items}
    for line, kind in DECISION_CORRECTIONS:
        clean = re.sub(r"^- (?:\[\w+\] )?", "", line)
        assert by_text.get(clean) == kind, (line, by_text)
    # The plain decision gets its section's prefix; the correction and permission need none.
    assert "- [decision] Use the blob id as the cache key." in cold
    assert "- No — we use Bicep, not ARM templates, for every new resource." in cold


def test_only_recognisable_noise_is_condensed() -> None:
    noise = ["- Ran the tests again.", "- Looked at the dashboard.", "- All tests pass ✅",
             "- **Status:** Complete", "- Okay, moving on to the next file now."]
    specific = ["- Ran the tests again with `--runslow`: `test_merge_large` takes 41 s.",
                "- The dashboard shows p95 latency above 800 ms only when the cache is cold.",
                "- All 1,204 tests pass ✅"]   # a count is a specific (round 5): when in doubt, keep
    doc = parse.parse("# Hot\n\n## Notes\n" + "".join(f"{ln}\n" for ln in noise + specific), "hot.md")
    out = compact.compact_doc(doc, set())
    assert out.kept == specific
    assert all(sentence_judge.noise(ln) for ln in noise)


def test_a_code_blocks_prose_comments_survive_session_end_and_the_code_is_condensed(squad_store: Path) -> None:
    block = ["```bash", "# Pin the base image by digest so a re-tag upstream cannot change production",
             "docker pull registry.example.com/base@sha256:4f1c0d", "# ok", "```"]
    cold, _ = _end(squad_store, {"Last actions": ["- Rebuilt the image with the pinned base:", *block]})
    assert "```bash\n# Pin the base image by digest so a re-tag upstream cannot change production\n```" in cold
    assert "docker pull" not in cold and "# ok" not in cold


def test_a_code_blocks_prose_comments_keep_their_speaker_in_a_transcript() -> None:
    turns = [f"User: Thanks, let me look at that now. I will continue with the next step." for _ in range(20)]
    turns[2] = ("Assistant: Here is the change.\n\n```python\n# Retry twice because the first call after a "
                "cold start times out\nclient.get(url, retries=2)\n```")
    parsed, _ = chatlog.read("\n\n".join(turns) + "\n", "t.md")
    text = transcript.compact(parsed, "t.md", "cl100k_base").markdown
    assert ("- code comments: (Assistant, turn 3)\n```python\n# Retry twice because the first call after a cold "
            "start times out\n```") in text
    assert "client.get(url" not in text


PLAIN = [  # 13 plain-language corrections, permissions, error causes and open tasks
    "No, that's wrong: the staging slot is `stage-2`, not `stage-1`.",
    "Actually, the retry limit is 5, not 3.",
    "You may merge docs-only PRs without a second review.",
    "You are not allowed to touch the billing tables.",
    "The import failed because the CSV had a BOM before the header.",
    "Root cause: the worker read `TZ` from the host, so cron fired an hour early after the DST change.",
    "We still need to add a test for renamed files.",
    "Next session: rotate the webhook secret before Friday.",
    "Never run the migration on the primary during business hours.",
    "It's fine to skip the e2e suite for README-only changes.",
    "The fix was to pin `urllib3<2` until the proxy supports TLS 1.3.",
    "Blocked by the security review of the new OAuth scopes.",
    "Correction: the owner prefers squash merges, not rebase merges.",
]


def test_transcript_keeps_every_plain_knowledge_sentence_with_speaker_and_turn() -> None:
    turns = []
    for n in range(60):
        role = "User" if n % 2 == 0 else "Assistant"
        inner = PLAIN[n // 5] if n % 5 == 0 and n // 5 < len(PLAIN) else ""
        turns.append(f"{role}: Thanks, let me look at that now. {inner} I will continue with the next step.")
    turns.append("Assistant: " + PLAIN[12] + " Moving on.")
    parsed, _ = chatlog.read("\n\n".join(turns) + "\n", "t.md")
    text = transcript.compact(parsed, "t.md", "cl100k_base").markdown
    for k, sentence in enumerate(PLAIN):
        number = 5 * k + 1 if k < 12 else 61
        role = "User" if (number - 1) % 2 == 0 else "Assistant"
        if number > 61 - 15:
            assert sentence in text   # the newest layer: in full
        else:
            assert f"- {sentence} ({role}, turn {number})" in text, sentence
    # No empty turns: a speaker line is always followed by that turn's text.
    assert not re.search(r"^\*\*(?:User|Assistant)\*\*:\s*(?:\n\s*)*(?:\*\*(?:User|Assistant)\*\*:|##|\Z)", text, re.M)


@pytest.mark.corpus
@pytest.mark.parametrize("split", ["tune", "held"])
def test_labelled_worth_keeping_sentences_are_kept_verbatim(split) -> None:
    # The first reader's labels: every worth-keeping sentence verbatim on both parts (1.000 / 1.000).
    items = [s for s in se.sentences(CORPUS, "first") if s.split == split]
    m = se.metrics(CORPUS, items)
    assert m["session_end_kept"] >= 0.95, [s.text[:60] for s in m["missed_session_end"]]
    assert m["transcript_kept"] >= 0.95, [s.text[:60] for s in m["missed_transcript"]]
    # Noise tokens removed (target 0.85): 0.662 / 0.717 on these labels since round 5, which keeps what the
    # second reader called worth keeping (counts, open statuses, code comments) and the first called noise;
    # this floor catches a judgement that stops condensing noise (keep-everything removes 0).
    assert m["noise_tokens_removed"] >= 0.6


@pytest.mark.corpus
@pytest.mark.parametrize("split, verbatim, noise_removed", [("tune", (0.95, 0.95), 0.95), ("held", (0.85, 0.95), 0.6)])
def test_resolved_worth_keeping_sentences_are_kept_verbatim(split, verbatim, noise_removed) -> None:
    # Resolved labels (worth keeping when either reader says so). Tuned part: the target, met in
    # round 5 (0.956 / 0.956, noise removed 0.924; round 6: 0.940). Held out, measured once after tuning: 0.864 / 0.955,
    # noise removed 0.648 -- held at those floors so a regression fails; session end's 0.95 is not met there.
    # Round 7 (session end keeps what the judgement keeps, Dreaming's reports dropped): tune noise removed 0.952.
    items = [s for s in se.sentences(CORPUS, "resolved") if s.split == split]
    m = se.metrics(CORPUS, items)
    assert m["session_end_kept"] >= verbatim[0], len(m["missed_session_end"]) if split == "held" else \
        [s.text[:60] for s in m["missed_session_end"]]
    assert m["transcript_kept"] >= verbatim[1], len(m["missed_transcript"])
    assert m["noise_tokens_removed"] >= noise_removed


def _stays_at(sample: str, verbatim: tuple[float, float], noise_removed: float, agreement: tuple[int, int],
              kappa: float) -> None:
    """A held-out sample's floors (session end / transcript verbatim, noise tokens removed) and its readers'
    agreement; misses are counted, never printed, so nothing is tuned on them."""
    m = se.metrics(CORPUS, se.sentences(CORPUS, "resolved", sample=sample))
    assert m["session_end_kept"] >= verbatim[0], len(m["missed_session_end"])
    assert m["transcript_kept"] >= verbatim[1], len(m["missed_transcript"])
    assert m["noise_tokens_removed"] >= noise_removed
    n, agree, k = se.agreement(sample)
    assert (n, agree) == agreement and k > kappa


@pytest.mark.corpus
def test_the_new_held_out_sample_stays_where_it_was_first_measured() -> None:
    # Round 5's new sample (42 sentences, all held out, labelled in two passes before any judgement ran on
    # it): first measured after round 5's last change at 0.920 / 1.000 verbatim (resolved) and 0.594 of its
    # noise tokens removed. Round 6 tuned on it (it is no longer held out): 0.960 / 1.000, noise removed 0.782.
    # Resolved with the independent third reader too (worth keeping when any reading says so): 0.923 / 1.000,
    # noise removed 0.761. Round 7 (session end's paths fixed, tuned on the tune part and unlabelled text only):
    # 0.962 / 1.000, noise removed 0.826.
    _stays_at("new", verbatim=(0.95, 0.95), noise_removed=0.8, agreement=(42, 40), kappa=0.85)


@pytest.mark.corpus
def test_the_round6_held_out_sample_stays_where_it_was_first_measured() -> None:
    # Round 6's sample (56 sentences, all held out, labelled from a blind view in two passes and committed
    # before any judgement ran on it), measured once after round 6's last change: 0.960 / 1.000 verbatim
    # (resolved), 0.472 of its noise tokens removed (target 0.85: not met). Then read by two independent readers
    # (reader3, reader4: 54 of 56 agree with each other, 53 with the first pass): resolved with every reading,
    # 0.929 / 1.000 verbatim (session end's target 0.95 not met), noise removed 0.470. Floors, so a regression
    # fails; its misses are not printed (no tuning on it). Round 7 (session end's paths fixed, Dreaming's
    # reports dropped; its rows not read): 0.964 / 1.000, noise removed 0.703.
    _stays_at("round6", verbatim=(0.95, 0.95), noise_removed=0.68, agreement=(56, 55), kappa=0.9)
    assert se.agreement("round6", reading="reader3")[1:] == se.agreement("round6", reading="reader4")[1:]
    assert se.agreement("round6", reading="reader3")[1] == 53


@pytest.mark.corpus
def test_the_round7_held_out_sample_stays_where_it_was_first_measured() -> None:
    # Round 7's sample (112 sentences, all held out, labelled from a blind view by two independent readers who
    # agree on 110, committed before any judgement ran on it), first measured on main at 176d329: 0.928 / 1.000
    # verbatim (session end's target 0.95 not met), 0.915 of its noise tokens removed (target 0.85: met).
    # Then, once, after round 7's judgement work (which never saw it): 0.928 / 1.000, noise removed 0.595.
    # The drop is the notes mode (a paragraph above any heading and a block quote are items, so no longer
    # dropped unread): with it off, 0.915 again; the tokens kept differ by ~4,000 of 1.08 million, so a few
    # long noise sentences decide the figure. Floors, so a regression fails; misses not printed (no tuning).
    # "Noise by weight" (a metadata label with a date value, a zoned date stamp, a type field): noise removed 0.962.
    _stays_at("round7", verbatim=(0.92, 0.95), noise_removed=0.95, agreement=(112, 110), kappa=0.9)


@pytest.mark.corpus
def test_the_round8_held_out_sample_stays_where_it_was_measured() -> None:
    # Round 8's sample (140 sentences, 10 a project, all held out, labelled from a blind view by two
    # independent readers with tests/labels/sentences_guide_round8.md, committed at 4421ed7 before any
    # judgement ran on it), measured as figures only: before the lead-in rule 0.929 / 0.957 verbatim, 0.464
    # of its noise tokens removed; after it 0.929 / 0.957 and 0.475 (every target missed: 0.95, 0.85).
    # Floors, so a regression fails; misses not printed, so nothing is tuned on it.
    # Stop 34 opened it for tuning (round 9 was drawn as the next held-out part): 0.957 / 0.957, 0.491.
    # "Noise by weight" (docs/judge.md): 0.957 / 0.957, noise removed 0.606.
    _stays_at("round8", verbatim=(0.95, 0.95), noise_removed=0.60, agreement=(140, 136), kappa=0.9)


@pytest.mark.corpus
def test_the_round9_sample_stays_where_it_was_measured() -> None:
    # Round 9's sample (140 sentences, 10 a project, labelled blind by two independent readers, committed at
    # c865f2b before any judgement ran on it), read once as figures: 0.897 / 0.910 verbatim, 0.493 of its noise
    # tokens removed (the keep target missed on fresh text). Then opened for tuning (its misses: sub-headings that
    # name a tool, a statement written in bold, a tree branch under a line, a command's name as a subject):
    # 0.949 / 0.949, 0.480.
    # "Noise by weight" (docs/judge.md): 0.949 / 0.949, noise removed 0.608.
    _stays_at("round9", verbatim=(0.94, 0.94), noise_removed=0.60, agreement=(140, 138), kappa=0.95)


@pytest.mark.corpus
def test_the_round10_held_out_sample_stays_where_it_was_first_measured() -> None:
    # Round 10's sample (140 sentences, drawn when round 9 was opened, labelled blind by two independent readers
    # and committed at 3b6940d before any judgement ran on it), measured once after stop 34's changes: 0.986 /
    # 0.959 verbatim (target 0.95: met on both), 0.624 of its noise tokens removed (target 0.85: not met).
    # Floors; misses not printed (no tuning on it).
    _stays_at("round10", verbatim=(0.98, 0.95), noise_removed=0.62, agreement=(140, 132), kappa=0.85)


@pytest.mark.corpus
def test_replaying_the_labelled_files_through_session_end_keeps_every_worth_keeping_sentence(tmp_path) -> None:
    """A real `session end` (store, lock, cold file, archive) of every file holding a labelled
    worth-keeping sentence: each is verbatim in cold or the archive afterwards."""
    import replay_labelled
    items = [s for s in se.sentences(CORPUS) if s.keep]
    lost = []
    for rel in sorted({s.rel for s in items}):
        text = (CORPUS / rel).read_text(encoding="utf-8", errors="replace").replace("\0", "")
        base = tmp_path / re.sub(r"\W", "_", rel)
        cold = _fold(replay_labelled._replay_file(text, base) + "".join(
            p.read_text() for p in sorted(base.glob(".squad/memory/archive/**/*.md"))))
        lost += [f"{s.rel}:{s.line}" for s in items if s.rel == rel and s.verbatim not in cold]
    assert not lost, lost
