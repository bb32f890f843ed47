"""The spawn's recall scope: tier and agent tests as rowid ranges (the same rows), hot's rarest names first."""
from __future__ import annotations

from pathlib import Path

from conftest import write

from tiergit.features import recall, recall_index, recall_scope
from tiergit.shell.store import Store

ROOT = Path(".squad") / "memory"
COLD = {
    "riker": "# riker\n\n### Keys (2026-05-01)\n\n- GatewaySigner rotates the signing keys before the cache flush.\n"
             "- The deploy checklist lives in the wiki.\n- GatewaySigner logs every rotation.\n",
    "troi": "# troi\n\n### Keys (2026-05-02)\n\n- GatewaySigner keys: troi reviewed the rotation window.\n"
            "- The deploy checklist needs a rollback step.\n",
}
WIKI = "# Deploy\n\n- [rule] GatewaySigner changes ship behind the deploy checklist.\n"
HOT = "# riker hot\n\n- [fact] ok\n"


def _index(repo: Path):
    for agent, text in COLD.items():
        write(repo / ROOT / "cold" / f"{agent}.md", text)
        write(repo / ROOT / "hot" / f"{agent}.md", HOT.replace("riker", agent))
    write(repo / ROOT / "wiki" / "deploy.md", WIKI)
    store = Store.open(repo)
    db = recall_index.connect(recall_index.index_path(store.repo))
    recall_index.refresh(store, db)
    return db


def _ids(hits) -> list[tuple[str, str]]:
    return [(h.path, h.id) for h in hits]


def test_ranges_select_the_rows_the_tier_and_agent_tests_select(squad_repo: Path) -> None:
    db = _index(squad_repo)
    try:
        for tiers in (["cold", "wiki"], ["cold"], ["wiki"], ["hot", "cold", "wiki"]):
            for agent in ("riker", "troi", None):
                for query in ("GatewaySigner keys", "deploy checklist", "rotation window"):
                    skip = recall_scope.skip_ranges(db, tiers, agent)
                    by_ranges = recall.search(db, query, tiers, limit=10, skip=skip)
                    by_tests = recall.search(db, query, tiers, agent, limit=10)
                    assert _ids(by_ranges) == _ids(by_tests), (tiers, agent, query)
        # and they do leave things out: another agent's cold file, the wiki when only cold is asked
        paths = {h.path for h in recall.search(db, "GatewaySigner", ["cold"], limit=10,
                                              skip=recall_scope.skip_ranges(db, ["cold"], "riker"))}
        assert paths == {".squad/memory/cold/riker.md"}
    finally:
        db.close()


def test_rarest_names_come_first_and_absent_ones_are_dropped(squad_repo: Path) -> None:
    db = _index(squad_repo)
    try:
        names = {"gatewaysigner", "deploy", "rollback", "nosuchname", "deploy.nosuchname"}
        got = recall_scope.rarest(db, names, 10)
        # rollback: 1 item; deploy: 3; gatewaysigner: 4; a name with a word no item holds: none
        assert got == ["rollback", "deploy", "gatewaysigner"]
        assert recall_scope.rarest(db, names, 2) == ["rollback", "deploy"]
        # a name searches as its rarest word, each word once
        assert recall_scope.rarest(db, {"gatewaysigner.rollback", "rollback", "gatewaysigner.deploy"}, 10) == [
            "rollback", "deploy"]
    finally:
        db.close()


def test_a_names_query_without_runs_finds_each_name(squad_repo: Path) -> None:
    db = _index(squad_repo)
    try:
        hits = recall.search(db, "rollback gatewaysigner", ["cold", "wiki"], limit=10, runs=False)
        texts = " ".join(h.text for h in hits)
        assert "rollback step" in texts and "GatewaySigner" in texts
    finally:
        db.close()


def test_item_counts_equal_the_vocabulary_below_the_cap_and_stop_at_it(squad_repo: Path) -> None:
    db = _index(squad_repo)
    try:
        vocab = dict(db.execute("SELECT term, doc FROM vocab"))
        assert vocab["gatewaysigner"] == 4 and vocab["deploy"] == 3
        for word in ("gatewaysigner", "deploy", "rollback", "nosuchname"):
            assert recall_scope.items_holding(db, word) == vocab.get(word, 0), word
            assert recall_scope.items_holding(db, word, cap=2) == min(vocab.get(word, 0), 2), word
        # a word the tokenizer splits is no stored term, even where its parts stand side by side
        write(squad_repo / ROOT / "cold" / "worf.md", "# worf\n\n### Ids (2026-05-03)\n\n- in reply to the deploy\n")
        recall_index.refresh(Store.open(squad_repo), db)
        assert recall_scope.items_holding(db, "in_reply_to") == 0
        # counted in full, fewest items first; capped at 2, the names held by 2 or more tie and come by name
        names = {"gatewaysigner", "deploy", "rollback", "rotation", "checklist"}
        assert recall_scope.rarest(db, names, 10) == ["rollback", "rotation", "checklist", "deploy", "gatewaysigner"]
        assert recall_scope.rarest(db, names, 10, cap=2) == [
            "rollback", "checklist", "deploy", "gatewaysigner", "rotation"]
    finally:
        db.close()
