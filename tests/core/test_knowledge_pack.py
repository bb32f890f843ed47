"""tiergit/core/knowledge_pack.py: valuing and packing a spawn's knowledge (pure)."""
from __future__ import annotations

from tiergit.core import knowledge_pack as kp
from tiergit.core.knowledge_pack import Candidate


def words(text: str) -> int:
    return len(text.split())


def cand(item_id: str, text: str, **kw) -> Candidate:
    return Candidate(item_id, "cold/a.md", kw.pop("line", 1), "cold", "Entry", kw.pop("kind", "fact"), text, **kw)


def test_newest_first_reads_each_files_direction_and_fills_undated_items():
    appended = ("cold", [("a1", "2026-01-01"), ("a2", None), ("a3", "2026-01-05"), ("a4", None)])
    prepended = ("cold", [("b1", "2026-03-02"), ("b2", "2026-03-01"), ("b3", "2026-02-01")])
    archive = ("archive", [("c1", "2026-03-02")])
    order = kp.newest_first([appended, prepended, archive])
    assert order[:3] == ["b1", "c1", "b2"]           # newest date first; the archive after on the same day
    assert order.index("a4") < order.index("a3") < order.index("a2") < order.index("a1")   # a4 written last
    weights = kp.recency_weights(order)
    assert weights["b1"] == 1.0 and weights["a1"] < weights["a4"] < 1.0


def test_newest_first_takes_the_commit_times_where_the_history_knows_them():
    # prepended, the newest entry's date mistyped (2025): by its date it would be the oldest
    prepended = ("cold", [("n1", "2025-05-02"), ("o1", "2026-05-01"), ("o2", "2026-05-01"), ("p1", None)])
    day = 86400 * 20574                                  # 2026-05-01 00:00 UTC
    written = {"n1": day + 86400 + 60, "o1": day + 3600, "o2": day + 7200}
    order = kp.newest_first([prepended], written)
    assert order[:3] == ["n1", "o2", "o1"]               # by commit time: one day's commits keep their order
    assert order[-1] == "p1"                             # undated and not in the history (a pointer line): last
    later = ("cold", [("s1", "2026-05-09")])             # an entry a later session wrote, dated, not committed
    assert kp.newest_first([prepended, later], written)[0] == "s1"


def test_pack_fills_the_budget_by_value_per_token_without_repeats():
    items = [cand("big", "relevant " * 150, relevance=1.0),
             cand("small", "relevant and short", relevance=0.6),
             cand("copy", "Relevant and short!", relevance=0.6),          # the same text again
             cand("old", "unrelated prose here", recency=0.2),
             cand("none", "nothing to say for it")]                        # no value at all
    picks, used, dropped = kp.pack(items, budget=90, max_items=10, count=words, query="relevant",
                                   wanted_names=set())
    ids = [p.id for p in picks]
    assert "copy" not in ids and "none" not in ids
    assert "small" in ids and "old" in ids and used <= 90
    big = next(c for c in picks if c.id == "big")
    assert big.cut and big.tokens < 150                   # a long item is cut, not dropped whole or kept whole
    assert ids == sorted(ids, key=lambda i: -next(p.value for p in picks if p.id == i))


def test_pack_skips_what_the_prompt_already_holds_and_weighs_kinds_and_names():
    blocker = "Blocked on the vendor's API key rotation for the billing service."
    items = [cand("b", blocker, relevance=0.9),
             cand("d", "Chose SQLite over Postgres for the cache.", relevance=0.5, kind="decision"),
             cand("f", "Chose SQLite over Postgres for the queue.", relevance=0.5, kind="fact"),
             cand("n", "The `BillingClient.Retry` helper wraps it.", relevance=0.0)]
    picks, _used, _dropped = kp.pack(items, budget=100, max_items=10, count=words, query="billing",
                                     wanted_names={"billingclient.retry"}, already="## Blockers\n- " + blocker)
    ids = [p.id for p in picks]
    assert "b" not in ids                                # hot shows it already
    assert ids.index("d") < ids.index("f")               # a decision weighs more than a fact
    assert "n" in ids                                    # named by the task or hot: valued without a hit


def test_names_finds_identifiers_paths_and_code():
    found = kp.names("Fix `rally dispatch clean` in lib/ui/Dashboard.jsx; ControlSkin.BorderStyle and token_cache.")
    assert {"rally dispatch clean", "lib/ui/dashboard.jsx", "controlskin.borderstyle", "token_cache"} <= found
    assert "fix" not in found


def test_name_index_lists_recurring_names_by_spread_and_skips_what_the_prompt_shows():
    entries = [("e1", "Moved `init_auth_db` into auth/db.py; SolrClient retries twice"),
               ("e2", "init_auth_db now writes schema_version; SolrClient timeout 30 s"),
               ("e3", "SolrClient pool size 8; see docker-compose.ssl.yml"),
               ("e3", "docker-compose.ssl.yml again, same entry"),            # one entry counts once
               ("e4", "PaymentGateway retries"), ]
    names = kp.name_index(entries, shown="The task: fix PaymentGateway", max_chars=200)
    assert names[0] == "SolrClient"                    # in three entries
    assert "init_auth_db" in names                     # in two, written as the memory writes it
    assert "docker-compose.ssl.yml" not in names       # twice, but in one entry
    assert "PaymentGateway" not in names               # once only, and the prompt shows it anyway
    assert kp.name_index(entries, shown="solrclient and INIT_AUTH_DB", max_chars=200) == []
    assert kp.name_index(entries, shown="", max_chars=14) == ["SolrClient"]   # the budget is characters


def test_a_piece_adding_long_words_the_block_lacks_goes_first():
    """At equal relevance, recency and length, the piece that adds content the block and the prompt do not
    hold yet is worth more per token: a line of new long words beats one whose words the prompt shows."""
    fresh = "Tokenizer migration finished; inference latency halved overall."
    repeat = "Gateway signing rotation finished; gateway signing rotation halved."
    items = [cand("repeat", repeat, recency=1.0), cand("fresh", fresh, recency=1.0)]
    picks, _used, _dropped = kp.pack(items, budget=9, max_items=10, count=words, query="",
                                     wanted_names=set(), already="Rotate the gateway signing keys (rotation)")
    assert [p.id for p in picks] == ["fresh"]
    # without the word weight the two are worth the same and their place decides (the repeat comes first)
    old, kp.W_WORDS = kp.W_WORDS, 0.0
    try:
        items = [cand("repeat", repeat, recency=1.0), cand("fresh", fresh, recency=1.0)]
        picks, _used, _dropped = kp.pack(items, budget=9, max_items=10, count=words, query="",
                                         wanted_names=set(), already="Rotate the gateway signing keys (rotation)")
        assert [p.id for p in picks] == ["repeat"]
    finally:
        kp.W_WORDS = old
