"""core/topics.py: subject topics for untagged items, instead of kind names."""
from __future__ import annotations

from tiergit.core import topics
from tiergit.core.candidate import Candidate, topic_of


def _c(text: str, kind: str = "rule", entry: str | None = None) -> Candidate:
    return Candidate(id=f"m-{abs(hash(text)) % 10**8:08d}", text=text, raw=text, kind=kind, source="cold/a.md", line=1,
                     entry=entry, age_day=None, target_tier="wiki", topic=topic_of(text, kind))


def test_an_item_joins_the_wiki_topic_it_names():
    c = _c("Refresh tokens in the gateway, never in the browser client")
    assert topics.assign([c], {"gateway", "rules"}) == 1 and c.topic == "gateway"


def test_shared_heading_words_then_shared_item_words_name_the_topic():
    a = _c("Pin the broker to 2.x", entry="Token cache expiry (2026-09-30)")
    b = _c("Clear the cache on logout", entry="Token cache expiry (2026-09-30)")
    c = _c("Name feature flags after the team that owns them")
    d = _c("Remove feature flags a month after launch", kind="decision")
    e = _c("Prefer composition over inheritance")
    topics.assign([a, b, c, d, e], set())
    assert a.topic == b.topic == "token-cache"
    assert c.topic == d.topic == "feature-flags"
    assert e.topic == "rules"                       # nothing shared: the kind's default stays


def test_tags_and_proposals_keep_their_topic():
    tagged = _c("Pin MSAL to 2.x #auth")
    forced = _c("Use pnpm everywhere")
    forced.forced, forced.topic = True, "tooling"
    topics.assign([tagged, forced, _c("Use pnpm in CI")], {"pnpm"})
    assert tagged.topic == "auth" and forced.topic == "tooling"
