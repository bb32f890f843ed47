"""The mention log: counts and days of the names a plan asks about, counted once, equal to a scan."""
from __future__ import annotations

import random
from datetime import date, timedelta

from tiergit.core.mentions import MentionLog


def _log(rng: random.Random) -> tuple[MentionLog, dict[str, list[date | None]]]:
    log, truth = MentionLog(), {}
    names = [f"name {n}" for n in range(40)]
    for _section in range(300):
        day = None if rng.random() < 0.3 else date(2026, 1, 1) + timedelta(days=rng.randrange(90))
        for name in set(rng.sample(names, 5)):   # a section mentions a name once
            log.add(hash(name), day)
            truth.setdefault(name, []).append(day)
    return log, truth


def test_settled_counts_and_days_equal_the_truth_and_the_scan() -> None:
    rng = random.Random(7)
    log, truth = _log(rng)
    asked = sorted(truth)[:20]
    scanned = {name: (log.count(name), log.days_of(name)) for name in truth}   # nothing settled: by scan
    log.settle(asked)
    assert log.settled == {hash(name) for name in asked}
    for name, days in truth.items():
        want = (len(days), {d for d in days if d is not None})
        assert scanned[name] == want, name
        assert (log.count(name), log.days_of(name)) == want, name   # settled ones from the dicts, the rest by scan
    assert set(log.counts) <= log.settled   # only the asked names were counted into a dict
    assert log.count("never mentioned") == 0 and log.days_of("never mentioned") == set()


def test_settling_again_counts_nothing_twice() -> None:
    log, truth = _log(random.Random(3))
    name = next(iter(truth))
    log.settle([name])
    log.settle([name, name])
    assert log.count(name) == len(truth[name])


def test_after_forgetting_the_cells_the_settled_names_answer_as_before() -> None:
    import pytest

    log, truth = _log(random.Random(11))
    names = sorted(truth)
    want = {name: (log.count(name), log.days_of(name)) for name in names[:5]}
    log.settle(names[:5])
    log.forget_cells()
    assert log.names is None and log.settled is None
    assert {name: (log.count(name), log.days_of(name)) for name in names[:5]} == want
    assert log.count("never mentioned") == 0 and log.days_of("never mentioned") == set()
    with pytest.raises(ValueError, match="let go"):
        log.settle([names[7]])
