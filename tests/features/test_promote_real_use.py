"""Promotion fires on real use: a durable item that long, real-looking session tasks recall as
their best answer is proposed; an unrecalled rule and a one-off event are not. Before the recall
events carried the hit's relevance, promotion averaged the share of the task's words the item
holds (~0.2 for a 20-word task title), and nothing scored 0.70."""
from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from conftest import commit, write

from tiergit.shell import clock, logs
from tiergit.shell.store import Store

TODAY = clock.today()


def d(days_ago: int) -> str:
    return (TODAY - timedelta(days=days_ago)).isoformat()


COLD = f"""# Kestrel: cold memory

### {d(60)}: Release pipeline hardening

- [rule] Database migrations run from the release pipeline only, after the container images are published
- [rule] Keep the public API changelog in docs/api-changes.md, one line per breaking change
- [fact] Build 4512 is running now on the staging runner
- [context] The dashboard team asked for a dark theme in the settings page
- [context] Reviewed the login form copy with the design team
"""

TASKS = [
    "Rework the nightly release pipeline so that the staging smoke tests gate the production rollout and database migrations",
    "Investigate why the release pipeline published container images twice and the migrations ran before the images existed",
    "Move the database migration step of the release pipeline behind the image publishing job and document the new order",
    "Fix the flaky release pipeline job where database migrations time out while the container images are still uploading",
    "Split the release pipeline into build, publish and migrate stages so database migrations never block image publishing",
    "Audit the release pipeline permissions after the migration job failed to pull the published container images",
]


def _replay(repo) -> None:
    from tiergit.features.recall import log_events, recall

    store = Store.open(repo)
    for n, task in enumerate(TASKS):
        hits, _ = recall(store, task, agent=None, limit=5, log=False)
        day = d(12 - 2 * n)
        logs.append(store, logs.RECALLS, [dict(ev, ts=f"{day}T12:00:00Z") for ev in log_events(task, "kestrel", hits)])


def test_recalled_durable_item_is_proposed_and_unrecalled_or_one_off_is_not(squad_repo):
    from tiergit.features.promotion import promote

    write(squad_repo / ".squad/memory/cold/kestrel.md", COLD)
    commit(squad_repo, "kestrel cold memory")
    _replay(squad_repo)
    promo = promote.build(Store.open(squad_repo), today=TODAY)
    migrations = next(r for r in promo.rows if r.cand.text.startswith("Database migrations"))
    changelog = next(r for r in promo.rows if r.cand.text.startswith("Keep the public API changelog"))
    one_off = next(r for r in promo.rows if r.cand.text.startswith("Build 4512"))
    assert migrations.recalls == len(TASKS)
    # the tasks are long: the item holds a small share of each task's words, yet it is each one's best answer
    assert migrations.score.signals["relevance"] >= 0.9, migrations.score.signals
    assert migrations.verdict.accepted, migrations.verdict.reason
    # on a five-item store it fills the hit list, but answers none of the tasks: no relevance
    assert not changelog.verdict.accepted and changelog.verdict.failed in ("recalls", "score")
    assert changelog.score.signals["relevance"] < 0.1
    assert not one_off.verdict.accepted and one_off.verdict.failed == "ephemeral"
    assert [r.cand.text for r in promo.accepted] == [migrations.cand.text]


def test_recall_events_carry_the_hits_relevance_and_scoring_averages_it():
    from tiergit.features.promotion.scoring import recall_stats
    from tiergit.features.recall import Hit, log_events

    hits = [Hit(rank=k, id=f"m-{k}", path="p.md", entry="e", date=None, kind="rule", tier="cold", agent=None,
                line=k, score=0.15, bm25=1.0, text="t", relevance=rel) for k, rel in ((1, 1.0), (2, 0.6))]
    events = log_events("a long task title of twenty words", "a", hits)
    assert [ev["relevance"] for ev in events] == [1.0, 0.6]
    assert recall_stats(events)["m-1"].relevance == 1.0
    # an event logged before `relevance` existed (or by another tool) still counts by its score
    assert recall_stats([{"id": "m-9", "score": 0.4, "query": "q"}])["m-9"].relevance == 0.4


def test_served_items_count_by_their_match_to_the_task_and_newest_only_items_do_not(squad_repo):
    from tiergit.features.promotion.served import log_served

    store = Store.open(squad_repo)
    pick = lambda iid, rel: SimpleNamespace(id=iid, path="p.md", entry="e", score=0.2, relevance=rel)  # noqa: E731
    knowledge = SimpleNamespace(picks=[pick("m-best", 0.8), pick("m-half", 0.4), pick("m-newest", 0.0)])
    assert log_served(store, "kestrel", "a task", knowledge) == 2
    events = {ev["id"]: ev for ev in logs.read(store, logs.RECALLS)}
    assert set(events) == {"m-best", "m-half"}
    assert events["m-best"]["relevance"] == 1.0 and events["m-half"]["relevance"] == 0.5


SECTION_COLD = f"""# Wren: cold memory

### {d(60)}: Dependabot triage in the heartbeat

**Key patterns:**
- [rule] Dependabot PR titles follow the "Bump X from A to B" format, reliable for extracting the dependency name
- [rule] Dependabot branch names use the dependabot/ecosystem/dependency format, a second routing signal

- [rule] Keep the triage comment format identical across every repository the heartbeat watches
"""


def test_a_recalled_list_label_counts_for_the_list_under_it(squad_repo):
    """Real use: a task's best hit was the short label "**Key patterns:**" (Squad's histories group
    their learnings under such labels), and the agent read the patterns under it. Those recalls now
    count for each item of that list, so a pattern that was only ever found through its label is
    proposed; an item after the blank line (not under the label) gains nothing."""
    from tiergit.core import parse
    from tiergit.features.promotion import promote

    write(squad_repo / ".squad/memory/cold/wren.md", SECTION_COLD)
    commit(squad_repo, "wren cold memory")
    label_id = parse.item_id("**Key patterns:**")[0]
    tasks = ["Route Dependabot pull requests to the right agent from the heartbeat",
             "Extract the dependency name from Dependabot pull requests for triage",
             "Teach the heartbeat to label Dependabot pull requests that fail CI",
             "Find which agent owns a Dependabot bump from its branch name"]
    store = Store.open(squad_repo)
    entry = f"{d(60)}: Dependabot triage in the heartbeat"
    logs.append(store, logs.RECALLS, [
        {"ts": f"{d(10 - 2 * n)}T12:00:00Z", "query": task, "agent": "wren", "id": label_id,
         "path": ".squad/memory/cold/wren.md", "entry": entry, "score": 0.2, "relevance": 1.0, "rank": 1,
         "via": "context"}
        for n, task in enumerate(tasks)])
    promo = promote.build(Store.open(squad_repo), today=TODAY)
    titles = next(r for r in promo.rows if r.cand.text.startswith("Dependabot PR titles"))
    branches = next(r for r in promo.rows if r.cand.text.startswith("Dependabot branch names"))
    apart = next(r for r in promo.rows if r.cand.text.startswith("Keep the triage comment"))
    label = next(r for r in promo.rows if r.cand.id == label_id)
    assert titles.recalls == branches.recalls == len(tasks)
    assert titles.verdict.accepted and branches.verdict.accepted, (titles.verdict.reason, branches.verdict.reason)
    assert apart.recalls == 0 and not apart.verdict.accepted and apart.verdict.failed == "recalls"
    assert not label.verdict.accepted and label.verdict.failed == "junk"   # the label itself is no knowledge


def test_section_events_copy_a_label_recall_to_its_list_once():
    from tiergit.core import parse
    from tiergit.core.candidate import lists_under
    from tiergit.features.promotion.scoring import recall_stats, section_events

    doc = parse.parse("# h\n\n**Lessons learned:**\n- one thing learned\n- another thing learned\n\nafter the list\n")
    items = [i for s in doc.sections for i in s.items]
    label = next(i for i in items if i.text.strip() == "**Lessons learned:**")
    assert lists_under(items) == {label.id: [items[1].id, items[2].id]}
    under = {(label.id, "cold/a.md", "h"): [items[1].id, items[2].id]}
    at = {"path": "cold/a.md", "entry": "h"}
    events = [{"id": label.id, "query": "q1", "ts": "2026-01-02T00:00:00Z", "relevance": 0.5, **at},
              {"id": items[1].id, "query": "q1", "ts": "2026-01-02T09:00:00Z", "relevance": 1.0, **at},
              # the same label text under another entry heads another list: not this one
              {"id": label.id, "query": "q2", "ts": "2026-01-03T00:00:00Z", "relevance": 1.0,
               "path": "cold/a.md", "entry": "another entry"}]
    stats = recall_stats(section_events(events, under))
    # the first item was already hit by that query that day: not counted twice; the second gains it
    assert stats[items[1].id].count == 1 and stats[items[2].id].count == 1
    assert stats[items[2].id].relevance == 0.5
