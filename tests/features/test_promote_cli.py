"""`promote` options and bad input: --limit, --open-pr preconditions, a damaged recall log,
an unreadable memory file, and the note when --apply runs on main."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import git, tiergit, traced_peak, write

from tiergit.core.parse import item_id
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

OLD = (clock.today() - timedelta(days=45)).isoformat()
RULES = ["- [rule] Retries must be idempotent across gateway pods",
         "- [rule] Cache the signing keys for ten minutes at most",
         "- [rule] Dead-letter a queue message after five failed deliveries",
         "- [rule] Commit the lockfile with every dependency change"]


def _repo(repo) -> None:
    write(repo / ".squad/memory/cold/picard.md", f"# P\n\n### Work ({OLD})\n\n" + "\n".join(RULES) + "\n")
    store = Store.open(repo)
    logs.append(store, logs.RECALLS, [
        {"ts": f"{(clock.today() - timedelta(days=1 + 2 * i)).isoformat()}T00:00:00Z", "query": f"q{i}",
         "id": item_id(r)[0], "score": 0.9 - 0.01 * n} for n, r in enumerate(RULES) for i in range(5)])


def test_limit_promotes_the_best_n(squad_repo):
    _repo(squad_repo)
    out = json.loads(tiergit(squad_repo, "promote", "--limit", "2", "--json").stdout)
    assert out["promote"] == 2
    limited = [c for c in out["candidates"] if c["failed"] == "limit"]
    assert len(limited) == 2 and limited[0]["reason"] == "over --limit 2 for this run"
    assert {c["text"] for c in out["candidates"] if c["verdict"] == "promote"} == {
        "Retries must be idempotent across gateway pods", "Cache the signing keys for ten minutes at most"}


def test_open_pr_needs_a_body_and_writes_nothing_without_one(squad_repo):
    _repo(squad_repo)
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "memory")
    run = tiergit(squad_repo, "promote", "--apply", "--open-pr")
    assert run.returncode == 2 and "needs --pr-body FILE" in run.stderr
    assert git(squad_repo, "status", "--porcelain").stdout == ""


def test_damaged_logs_and_files_do_not_stop_promotion(squad_repo):
    _repo(squad_repo)
    recalls = logs.log_path(Store.open(squad_repo), logs.RECALLS)
    recalls.write_text(recalls.read_text() + "<<<<<<< HEAD\n{not json\n[1, 2]\n")
    (squad_repo / ".squad/memory/cold/data.md").write_bytes(b"\x00\x01binary")
    run = tiergit(squad_repo, "promote", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["promote"] == 4


def test_apply_on_main_says_to_use_a_branch(squad_repo):
    _repo(squad_repo)
    run = tiergit(squad_repo, "promote", "--apply")
    assert run.returncode == 0, run.stderr
    assert "note: on main: durable tiers are reviewed" in run.stdout
    git(squad_repo, "switch", "-q", "-c", "tiergit/promote")
    second = tiergit(squad_repo, "promote", "--apply")
    assert "note: on" not in second.stdout and "0 to promote" in second.stdout


def test_pr_body_stays_under_githubs_limit_with_thousands_of_candidates(squad_repo, tmp_path):
    import hashlib

    def words(n: int) -> str:   # distinct words per rule, so none is a near-duplicate of another
        h = hashlib.sha1(str(n).encode()).hexdigest()
        return " ".join("q" + h[i:i + 5] for i in range(0, 30, 5))

    lines = [f"- [rule] Prefer {words(n)} in every service" for n in range(1500)]
    write(squad_repo / ".squad/memory/cold/picard.md", f"# P\n\n### Work ({OLD})\n\n" + "\n".join(lines) + "\n")
    store = Store.open(squad_repo)
    logs.append(store, logs.RECALLS, [{"ts": f"{(clock.today() - timedelta(days=1 + 2 * i)).isoformat()}T00:00:00Z",
                                       "query": f"q{i}", "id": item_id(ln)[0], "score": 0.9}
                                      for ln in lines[:600] for i in range(5)])
    body = tmp_path / "body.md"
    run = tiergit(squad_repo, "promote", "--pr-body", str(body), "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["promote"] > 200 and out["reject"] > 100
    text = body.read_text()
    assert len(text) <= 60_000 and text.startswith("<!-- tiergit:promotion -->")
    assert "more: `tiergit promote --json` lists every candidate." in text
    preview = tiergit(squad_repo, "promote").stdout
    assert "more rejected, with lower scores: --all lists them" in preview
    assert preview.count("  reject ") == 50


def test_all_is_written_as_it_is_made_not_as_one_string(capsys):
    # `promote --all` at 50k files is 600,000 lines; one wide character made the joined report 4 bytes a
    # character (~370 MB beside the plan). The lines are made and written a chunk at a time, unchanged.
    from tiergit.commands import promote as promote_cmd
    from tiergit.core.candidate import Candidate
    from tiergit.core.config import GateSettings
    from tiergit.features.plan import Plan
    from tiergit.features.promotion.gate import GateVerdict
    from tiergit.features.promotion.promote import Promotion, Row
    from tiergit.features.promotion.scoring import SIGNALS, Score

    verdict = GateVerdict(False, "recalled 0 time(s) < 2", "recalls")
    score = Score(0.3, dict.fromkeys(SIGNALS, 0.3), {})
    rows = [Row(Candidate(id=f"m-{n:08x}", text=f"Pin the broker SDK {n} to an exact version — always 🔒 " * 3,
                          raw="", kind="rule", source=f".squad/memory/cold/a{n % 50}.md", line=n, entry=None,
                          age_day=None, target_tier="wiki", topic="rules"), score, 0, 0, verdict, "wiki/rules.md")
            for n in range(6000)]
    promo = Promotion(today=date(2026, 12, 4), settings=GateSettings(), rows=rows, plan=Plan("tiergit promote"))
    _, peak = traced_peak(promote_cmd._summary, None, promo, do_apply=False, show_all=True)
    out = capsys.readouterr().out
    assert out.startswith(promote_cmd.render(promo, show_all=True) + "\n\n") and out.count("🔒") == 6000
    # As one string (the list of its lines, then the string, 4 bytes a character) the peak was 17.6 MB here.
    # Written in chunks: a chunk, and what the capture holds (2.4 MB of UTF-8).
    assert peak < 6_000_000, peak
