"""The gate promotes only knowledge: a recalled cold item with no marker word passes when it reads
as a standing statement (tiergit/core/statement.py) and not when it reports work, status or chat;
Dreaming notes lifted from a dated log stay events; junk by shape; one-off vs recurring times.
Lines here are written by the team; the corpus floors read the labelled sets (tests/labels/)."""
from __future__ import annotations

import json
import re
from datetime import date, timedelta

import judge_eval as je
import pytest
from conftest import CORPUS, corpus_files, tiergit, write

from tiergit.core import candidate, dreams, judge, kinds, statement
from tiergit.core.parse import item_id
from tiergit.features.promotion import gate
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

STATEMENTS = [
    # (line, shape)
    ("- The export job reads its batch size from `EXPORT_BATCH` at start-up", "claim"),
    ("- Invoice PDFs are rendered by the `pdf-worker` service, not by the API", "claim"),
    ("- **Retry policy:** the upload client retries three times with exponential backoff", "claim"),
    ("- Archived tenants keep their audit rows for seven years", "claim"),
    ("- `FindExports` is now a thin wrapper around `FindFiles`", "claim"),
    ("- Search model: text-embedding-3-small (1536 dims)", "setting"),
    ("- Staging URL: https://staging.example.test", "setting"),
    ("- The preview runner uses the same base image as the CI builds", "claim"),   # "same" with what it is
    # a person in the reason, not in the main clause; a date is no count ("3/12 tests")
    ("- The nightly export runs at 02:00 UTC because that's the quietest window for all our regions", "claim"),
    ("- Invoice dates are written like 12 March 2025, not 03/12/2025", "claim"),
]
NOT_STATEMENTS = [
    "- Added the retry policy to the upload client",           # work report
    "- All upload tests pass ✅",                               # status
    "- The export job now streams rows in this session",       # about this session
    "- Verifies the cache is cleared after logout",            # test description, no subject
    "- PR #412: batch size made configurable",                 # a work item
    "- This is the part of the export we talked about",        # a bare pronoun, a chat
    "- **Updated:** `export.py` streams rows to the client",   # a report label
    "- Key files: `src/export.py`, `src/batch.py`",            # a list of files
    "- The upload client was rewritten to stream chunks",      # past tense
    "- Let me know if the export works for you",               # addressed to a person
    "- Build clean: 0 warnings",                               # status
    "- The export scheduler is now fully activated via the admin command",   # a state that just changed
    "- Which queue does the export job read from?",            # a question
    "- Source file: `src/export/batch.py`",                     # a pointer, not a setting
    "- CI run: https://github.com/acme/shop/actions/runs/1234",  # an event's link
    "1. **Export batch sizing** — the limit is hard-coded. Quick fix: read it from the config",  # a finding and its to-do
    "- Both workers use same config",                          # the same as what? the lines around it say
    "- The export job has the limits as above",                # leans on the lines above
    "- The export job reads its batch size from the file mentioned above",
    "- **Proposal:** Fast (~5 min) checks on dev PRs, full E2E (60 min) on release PRs",   # proposed, not decided
    "- **Idea:** cache the export token per tenant",
    "- We moved the export job to the new runner because it was faster",   # a person in the main clause
    "- Export tests: 3/12 passing",                            # a count is a status
]


@pytest.mark.parametrize("line,shape", STATEMENTS)
def test_standing_statements_are_read_by_shape(line, shape):
    assert kinds.classify(line) == "context", "a line with no marker word: the kind judgement leaves it context"
    assert statement.standing(candidate.clean(line)) == shape


@pytest.mark.parametrize("line", NOT_STATEMENTS)
def test_reports_status_and_chat_are_not_statements(line):
    assert statement.standing(candidate.clean(line)) is None


def _cand(line: str, staged: bool = False) -> candidate.Candidate:
    text = candidate.clean(line)
    return candidate.Candidate(id=item_id(line)[0], text=text, raw=line, kind=kinds.classify(line), source="x.md",
                                line=1, entry=None, age_day=None, target_tier="wiki", topic="notes", staged=staged)


def test_the_kind_check_admits_a_standing_statement_only_from_a_tier():
    claim = STATEMENTS[0][0]
    assert gate.kind_check(_cand(claim)) is None
    assert "standing statement (claim)" in gate._kind_ok(_cand(claim))
    assert "not durable" in gate.kind_check(_cand(NOT_STATEMENTS[0]))
    # Staged items were judged when staged (import, Dreaming): no second look.
    assert "not durable" in gate.kind_check(_cand(claim, staged=True))


def test_a_notice_that_knowledge_was_filed_elsewhere_is_not_the_knowledge():
    for line in ("- **Key Decision:** The export retry fix merged to the team decisions log. Three paths changed.",
                 "- **Decision merged:** `decisions.md` holds the consolidated export choices",
                 "- Export batch decision moved into `wiki/export.md` for review"):
        assert "filed elsewhere" in gate.kind_check(_cand(line)), line
    # a standing passive says where something always goes: knowledge
    for line in ("- Export errors are logged to the audit file with the tenant id", "- We decided to log export errors to stderr"):
        assert gate.kind_check(_cand(line)) is None, line


@pytest.mark.parametrize("line,kind", [
    ("- Only use signed tags for releases", "rule"),
    ("- Only pass the token through the gateway", "rule"),
    ("- Only the nightly export bug affects us", None),         # a noun phrase: a state of that day
    ("- Only captured explicit inputs (papers, bookmarks)", None),   # past tense: a report
    ("- Only merges clusters when co-occurrence is above zero", None),  # a description of code
    ("- **Single entry point**: Only port 8443 open to the internet", None),   # a named thing, no verb
])
def test_only_directs_when_a_verb_follows(line, kind):
    assert judge.plain_kind(line) == kind


@pytest.mark.parametrize("line,kind", [
    # KCNyu's skills-store policy, near misses of stop 33 (a directive after a condition or purpose clause)
    ("- For package installs, try the internal mirror first (faster from the office).", "rule"),
    ("- Before an upgrade, summarize the release notes and the known risks.", "rule"),
    ("- If the mirror is down, rate-limited, or has no match, fall back to the public registry.", "rule"),
    ("- When the smoke test fails, check the fixture data first.", "rule"),
    ("- Try the mirror's health page before filing an outage.", "rule"),
    ("- For now, add the header by hand.", None),                          # a stopgap, not a standing rule
    ("- For the demo, we used the old build and then ran it twice.", None),   # a report after the clause
    ("- If the build fails, the bot retries it, so nobody is paged.", None),  # a description
    ("- Summarize the notes later.", None),                                # no clause: "summarize" alone is no directive word
])
def test_a_directive_after_a_condition_or_purpose_clause_is_a_rule(line, kind):
    assert judge.plain_kind(line) == kind


OLD = (clock.today() - timedelta(days=60)).isoformat()


def test_a_recalled_statement_graduates_and_a_recalled_report_does_not(squad_repo):
    lines = [STATEMENTS[1][0], NOT_STATEMENTS[0], NOT_STATEMENTS[8]]
    write(squad_repo / ".squad/memory/cold/picard.md",
          f"# Picard\n\n### Billing ({OLD})\n\n" + "\n".join(lines) + "\n")
    store = Store.open(squad_repo)
    logs.append(store, logs.RECALLS, [
        {"ts": f"{(clock.today() - timedelta(days=1 + 2 * i)).isoformat()}T09:00:00Z", "query": f"q{i}",
         "agent": "picard", "id": item_id(line)[0], "path": "x", "entry": "x", "score": 0.95, "rank": 1}
        for line in lines for i in range(5)])
    rows = {r["id"]: r for r in json.loads(tiergit(squad_repo, "promote", "--json").stdout)["candidates"]}
    fact, report, past = (rows[item_id(line)[0]] for line in lines)
    assert fact["verdict"] == "promote", fact["reason"]
    assert report["verdict"] == past["verdict"] == "reject" and report["failed"] == past["failed"] == "kind"
    run = tiergit(squad_repo, "promote", "--explain", item_id(lines[0])[0])
    assert run.returncode == 0 and "reads as a standing statement (claim)" in run.stdout


DATED = ("- Candidate: Session notes - 2026-05-02: Observations:; The build cache is large; consider pruning it.\n"
         "  - confidence: 0.70\n  - evidence: memory/2026-05-02.md:10-12\n  - status: staged")
UNDATED = "- Candidate: The build cache lives in `~/.cache/build`\n  - confidence: 0.70\n  - status: staged"


def test_a_dreaming_note_with_a_dated_lead_title_is_an_event():
    assert dreams.STAMPED.match(DATED) and not dreams.STAMPED.match(UNDATED)
    assert dreams.STAMPED.match("- Candidate: 2026-05-02 14:10 — Deploy: rolled back")
    text, kind, dreamed, _ = dreams.read_dreamed(DATED, candidate.clean(DATED), "context", 0.6)
    assert dreamed == "confidence 0.70" and kind == "context"      # vouched, but not made a fact
    text, kind, _, _ = dreams.read_dreamed(UNDATED, candidate.clean(UNDATED), "context", 0.6)
    assert kind == "fact" and text == "The build cache lives in `~/.cache/build`"


@pytest.mark.parametrize("line,why", [
    ("cd ~/shop && git pull", "a shell command"),
    ("BUILD_LOG=$(git log --oneline | head -5)", "a shell command"),
    ("    order.total += line.price * line.qty;", "a line of code"),
    ('    ["queued"] = "waiting",', "a line of code"),
    ("    rows = fetch_rows({", "a line of code"),
    ('ingress.kubernetes.io/proxy-body-size: "8m"', "a config line"),
    ("3. `OrderService_Refund_ReturnsCredit`", "a code name alone"),
    ("  - evidence: memory/2026-05-02.md:10-12", "a metadata / status line"),
])
def test_junk_shapes(line, why):
    assert judge.junk(line) == why


def test_junk_leaves_prose_with_symbols_alone():
    for line in ["- Default = retry + alert (not a page)", "- `BATCH` must be set before the export runs",
                 "- Port 8080 serves the admin UI", "TIERGIT=0 git commit -m x"]:
        assert judge.junk(line) is None, line


def test_one_off_and_recurring_times():
    assert gate.ephemeral("Activities launched from Today's Plan keep the resource filter") is None
    assert gate.ephemeral("每周一 09:00 同步周报") is None and gate.ephemeral("周五 18:00 冻结发布") is None
    assert gate.ephemeral("today's plan is to ship the export") and gate.ephemeral("Deployed at 14:32")


# ---- floors on real data (tests/labels/candidates_corpus.tsv, kinds_corpus.tsv as cold items) --------
@pytest.fixture(scope="module")
def real():
    return je.candidate_lines(CORPUS)


def _m(cands, name, split):
    return je.gate_metrics([c for c in cands if c.set == name and c.split == split])


@pytest.mark.corpus
@pytest.mark.parametrize("split", ["tune", "held"])
def test_no_labelled_reject_dreaming_candidate_is_promoted(real, split):
    m = _m(real, "dreams", split)
    assert m["bad_promoted"] == [], m["bad_promoted"]
    if split == "tune":
        assert m["recall"] >= 0.75, m["good_rejected"]


@pytest.mark.corpus
def test_corpus_lines_as_cold_items_tuned_part(real):
    m = _m(real, "corpus-cold", "tune")
    # Before statements: precision 0.889, recall 0.167. The one bad promotion left is a chat line
    # with a rule's wording ("Keep a dream journal …"), judged by the kind judgement.
    assert m["precision"] >= 0.96 and m["recall"] >= 0.65, (m["bad_promoted"], m["good_rejected"])


@pytest.mark.corpus
def test_corpus_lines_as_cold_items_held_part(real):
    # Measured floor, below the 0.97 target: three held-out lines labelled context read as claims
    # about code (docs/judge.md). Before statements: precision 1.000 (7 promoted), recall 0.304.
    m = _m(real, "corpus-cold", "held")
    assert m["precision"] >= 0.74 and m["recall"] >= 0.39, (m["bad_promoted"], m["good_rejected"])


TITLED = ("- Candidate: Billing Architecture Decision: Background Jobs: CREATE TABLE jobs (id UUID PRIMARY KEY)\n"
          "  - confidence: 0.70\n  - status: staged")
TITLED_FACT = "- Candidate: Search Service Notes: The search API accepts a `mode` parameter\n  - confidence: 0.70"
TITLED_REPORT = "- Candidate: Build Result: Search now accepts a `mode` parameter\n  - confidence: 0.70"


def test_a_light_sleep_candidate_is_judged_on_its_lines_not_its_section_title():
    assert dreams.untitled("Billing Architecture Decision: Background Jobs: CREATE TABLE x") == "CREATE TABLE x"
    assert dreams.untitled("Decision: use Postgres") == "Decision: use Postgres"     # a label, not a title
    _, kind, dreamed, _ = dreams.read_dreamed(TITLED, candidate.clean(TITLED), "context", 0.6)
    assert dreamed and kind == "context"       # "Decision" in the title does not make the SQL a decision
    _, kind, _, _ = dreams.read_dreamed(TITLED_FACT, candidate.clean(TITLED_FACT), "context", 0.6)
    assert kind == "fact"
    _, kind, _, _ = dreams.read_dreamed(TITLED_REPORT, candidate.clean(TITLED_REPORT), "context", 0.6)
    assert kind == "context"                   # filed under a report title


@pytest.mark.corpus
def test_few_real_dreaming_candidates_pass_the_content_rules():
    """Every unique Dreaming candidate in the corpus (light-sleep reports and DREAMS.md, all six
    workspaces: 4,539), judged like the labelled ones: before light-sleep candidates had to state
    something, 320 passed (mostly section dumps of daily logs: plans, monitoring results, TODOs)."""
    seen, passed = set(), 0
    for path in sorted(CORPUS.glob("openclaw_*/memory/dreaming/light/*.md")) + sorted(CORPUS.glob("openclaw_*/DREAMS.md")):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for n, line in enumerate(lines):
            if not line.startswith(("- Candidate:", "- [likely_durable]")) or line in seen:
                continue
            seen.add(line)
            item = [line]
            for nxt in lines[n + 1:]:
                if not (nxt.startswith(("  ", "\t")) and nxt.strip().startswith("-")):
                    break
                item.append(nxt)
            passed += je.gate_verdict(je.Cand("dreams", "x", False, "", "\n".join(item), "")).accepted
    assert len(seen) > 4000 and passed <= 35, (len(seen), passed)


@pytest.mark.parametrize("text,message", [
    ("git push --force-with-lease origin main", "junk: a shell command"),
    ("**Status:** done", "junk:"),
    ("Prefer small PRs [score=0.91 recalls=4]", "metadata"),
])
def test_propose_refuses_at_once_what_promote_would_drop(squad_repo, text, message):
    run = tiergit(squad_repo, "propose", "--apply", "--topic", "ops", text)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr, run.stderr
    ok = tiergit(squad_repo, "propose", "--topic", "ops", "Deploys are frozen from 18:00 UTC on Fridays")
    assert ok.returncode == 0, ok.stderr


@pytest.mark.corpus
@pytest.mark.parametrize("report", corpus_files("openclaw_Deepdelver_workspace/memory/dreaming/light/*.md"),
                         ids=lambda p: p.stem)
def test_real_light_sleep_reports_promote_only_clean_durable_items(repo, report):
    """A real light-sleep report (where the held-out Deepdelver notes come from) placed as DREAMS.md
    through `promote --apply`: what reaches MEMORY.md is clean, durable, and no note lifted from a
    dated log."""
    from test_judge_dreams_e2e import assert_clean, promote

    text = report.read_text(encoding="utf-8", errors="replace").replace("\ufeff", "")
    items = promote(repo, text)
    assert_clean(items)
    # Written here, not taken from tiergit: a date in the lead title, before the first colon.
    dated = {ln for ln in text.splitlines() if re.match(r"- Candidate: [^:;]*\b\d{4}-\d{2}-\d{2}\b", ln)}
    for pair in items:
        line = int(pair.split("DREAMS.md:")[1].split(":")[0])
        assert text.splitlines()[line - 1] not in dated, pair
