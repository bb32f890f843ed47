"""A promotion plan reads the store one parsed document at a time: however many files, it never
holds every file's parse (a 10k-file store's documents were most of a plan's peak memory), on a
first run (parsed) and a warm one (read from the parse cache) alike, with the same candidates."""
from __future__ import annotations

import gc
from pathlib import Path

from conftest import traced_peak, write

from tiergit.core import candidate, parse
from tiergit.features.promotion import candidates
from tiergit.shell.store import Store

COLD = Path(".squad") / "memory" / "cold"


def _live_docs() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, parse.MemoryDoc))


def test_a_plan_holds_one_parsed_document_at_a_time(squad_repo: Path, monkeypatch) -> None:
    for i in range(30):
        write(squad_repo / COLD / f"agent{i:02d}.md",
              f"# agent{i:02d}\n\n### 2026-0{i % 9 + 1}-1{i % 10} · session {i}\n\n"
              f"- [rule] Never deploy on Friday {i}\n- **Root cause:** the cache key missed the tenant {i}\n")
    seen: list[int] = []
    real = candidate.collect

    def counting(files, *args):
        def each():
            for f in files:
                seen.append(_live_docs())
                yield f
        return real(each(), *args)

    monkeypatch.setattr(candidate, "collect", counting)
    got = []
    for run in ("first", "warm"):
        seen.clear()
        corpus = candidates.gather(Store.open(squad_repo), set(), blame=False)
        got.append(sorted((c.id, c.source, c.kind, c.text) for c in corpus.candidates))
        assert len(seen) >= 30, run
        assert max(seen) <= 2, f"{run}: {max(seen)} parsed documents alive at once"
    assert got[0] == got[1] and len(got[0]) >= 30


def test_mentions_count_each_section_once_and_keep_every_day(squad_repo: Path) -> None:
    # The counts replaced a set of (file, section) per name: the same answers, without the sets.
    rule = "- [rule] Always pin the base image digest in the Dockerfile\n"
    write(squad_repo / COLD / "a.md", f"# a\n\n### 2026-03-01 · one\n\n{rule}{rule}\n### 2026-03-02 · two\n\n{rule}")
    write(squad_repo / COLD / "b.md", f"# b\n\n### 2026-03-02 · three\n\n{rule}\n### 2026-03-05 · four\n\n- [fact] other\n")
    corpus = candidates.gather(Store.open(squad_repo), set(), blame=False)
    key = next(c.mention_key for c in corpus.candidates if "base image" in c.text)
    assert candidate.mention_count(corpus, key) == 3   # three sections; twice in the first counts once
    assert candidate.mention_days(corpus, key) == {parse.heading_date(d) for d in ("2026-03-01", "2026-03-02")}
    other = next(c.mention_key for c in corpus.candidates if c.text == "other")
    assert candidate.mention_days(corpus, other) == {parse.heading_date("2026-03-05")}
    assert candidate.mention_days(corpus, "no such key") == set() and candidate.mention_count(corpus, "no such key") == 0
    # the names are kept as hashes in flat arrays, not as strings (no key string outlives its file), and
    # only the candidates' names were counted into a dict
    assert corpus.mentions.names.typecode == "q" and len(corpus.mentions.names) >= 4
    assert set(corpus.mentions.counts) <= {hash(n) for c in corpus.candidates for n in (c.mention_key, c.id)}


def test_a_plan_holds_little_for_each_candidate_and_wiki_item(squad_repo: Path) -> None:
    # At 50k real-sized files a plan meets ~200,000 candidates and ~700,000 wiki items; it held ~4.2 KB
    # for each candidate (its key as a string, empty lists, a signals dict, the checks of its verdict,
    # every wiki item's key, label and id as strings, every file's line dates), ~1,018 MB in all.
    import random

    from tiergit.features.promotion import promote

    rng = random.Random(5)
    words = [f"{w}{n}" for n in range(400) for w in ("cache", "deploy", "tenant", "broker")]

    def item(kind: str) -> str:
        return f"- [{kind}] {' '.join(rng.choices(words, k=14))} in `src/mod{rng.randrange(90)}.py`\n"

    for i in range(40):
        body = "".join(f"\n### 2026-0{n % 9 + 1}-1{n % 10} · session {n}\n\n" + item("rule") + item("decision")
                       + item("context") for n in range(12))
        write(squad_repo / COLD / f"agent{i:02d}.md", f"# agent{i:02d}\n{body}")
    wiki = Path(".squad") / "memory" / "wiki"
    for i in range(20):
        write(squad_repo / wiki / f"topic{i:02d}.md", f"# topic{i:02d}\n\n" + "".join(item("fact") for _ in range(60)))
    store = Store.open(squad_repo)
    promote.build(store)   # parse and judge once: the warm run is the one measured
    promo, peak = traced_peak(promote.build, store)
    assert len(promo.rows) == 960
    # Here (fixed costs included) 1,665 bytes a candidate or wiki item before, 1,144 after.
    assert peak / (960 + 1200) < 1350, peak / (960 + 1200)
