"""A promotion plan runs with the cyclic garbage collector paused (shell/gcpause.py) and leaves it
as it found it."""
from __future__ import annotations

import gc

from tiergit.features.promotion import promote
from tiergit.shell.gcpause import gc_paused
from tiergit.shell.store import Store


def test_the_plan_runs_with_the_collector_paused_and_restores_it(squad_repo, monkeypatch):
    seen = []
    real = promote.gather
    monkeypatch.setattr(promote, "gather", lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    assert gc.isenabled()
    promote.build(Store.open(squad_repo))
    assert seen == [False] and gc.isenabled()


def test_an_error_restores_the_collector_and_a_paused_one_stays_paused():
    @gc_paused
    def fails():
        assert not gc.isenabled()
        raise ValueError("boom")

    try:
        fails()
    except ValueError:
        pass
    assert gc.isenabled()
    gc.disable()
    try:
        assert gc_paused(gc.isenabled)() is False
        assert not gc.isenabled()
    finally:
        gc.enable()
