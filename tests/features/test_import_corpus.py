"""`import squad --apply` on both real corpus projects: 100 % of durable items stay reachable by recall,
every line of every history survives (cold + archive), and the default spawn fits the hot budget."""
from __future__ import annotations

import json
import re
import shutil
import statistics
from pathlib import Path

import pytest
from conftest import CORPUS, git, tiergit

from tiergit.core import parse
from tiergit.features import recall, recall_index
from tiergit.features.importing import importer
from tiergit.shell.store import Store

pytestmark = pytest.mark.corpus

PROJECTS = ["bradygaster_squad", "martinopedal_azure-analyzer"]


def _env(home: Path) -> dict[str, str]:
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    return {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}


@pytest.fixture(scope="module", params=PROJECTS)
def imported(request, tmp_path_factory) -> tuple[Path, dict]:
    """A real repo with the project's .squad, `init --preset squad`, `import squad --apply`, committed."""
    project = request.param
    base = tmp_path_factory.mktemp(project)
    env = _env(base)
    repo = base / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", env=env)
    shutil.copytree(CORPUS / project / ".squad", repo / ".squad")
    assert tiergit(repo, "init", "--preset", "squad", env=env).returncode == 0
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-q", "-m", "legacy squad + tiergit init", env=env)
    before = {p.relative_to(repo).as_posix(): p.read_bytes() for p in (repo / ".squad").rglob("*.md")
              if "memory" not in p.parts}
    proc = tiergit(repo, "import", "squad", "--apply", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    _follow_budget_hint(repo, result["notes"])
    git(repo, "add", "-A", env=env)
    commit = git(repo, "commit", "-q", "-m", "tiergit import squad", env=env, check=False)
    assert commit.returncode == 0, commit.stdout + commit.stderr  # the pre-commit hook accepted every file
    return repo, {"result": result, "before": before, "env": env}


def _follow_budget_hint(repo: Path, notes: list[str]) -> None:
    """Pinned sections stay in cold even over budget; the import names the budget that fits them:
    set it, as a user would (the largest value named for each metric)."""
    wanted: dict[str, int] = {}
    for metric, value in re.findall(r"tiers\.cold\.budget\.(\w+): (\d+)", "\n".join(notes)):
        wanted[metric] = max(wanted.get(metric, 0), int(value))
    if wanted:
        cfg = repo / ".tiergit.yml"
        budget = ", ".join(f"{m}: {v}" for m, v in sorted(wanted.items()))
        cfg.write_text(cfg.read_text() + f"tiers:\n  cold: {{budget: {{{budget}}}}}\n")


def _legacy_durable(repo: Path) -> list:
    items = []
    for path in sorted(repo.glob(".squad/agents/*/history.md")) + [repo / ".squad" / "decisions.md"]:
        rel = path.relative_to(repo).as_posix()
        doc = parse.parse(path.read_text(encoding="utf-8"), rel)
        items += importer.durable_items(doc, rel, rel.endswith("decisions.md"))
    return items


def _ids_in(paths) -> set[str]:
    ids = set()
    for p in paths:
        ids |= {i.id for i in parse.parse(p.read_text(encoding="utf-8"), str(p)).items}
    return ids


def test_every_durable_item_is_reachable_by_recall(imported):
    repo, _ = imported
    store = Store.open(repo)
    durable = _legacy_durable(repo)
    assert len(durable) >= 30
    root = store.root
    placed = _ids_in(list((root / "cold").glob("*.md")) + list((root / "archive").rglob("*.md"))
                     + list((root / "staging").glob("*.md")))
    db = recall_index.connect(recall_index.index_path(repo))
    try:
        recall_index.refresh(store, db)
        tiers = recall.default_tiers(store.config)
        missing = [i for i in durable if i.id not in placed]
        not_found = [i for i in durable if i.id not in {h.id for h in recall.search(db, i.text, tiers, limit=10)}]
    finally:
        db.close()
    assert missing == [], f"{len(missing)} durable items lost"
    assert not_found == [], f"recall misses {len(not_found)} of {len(durable)}: {not_found[:3]}"


def test_recall_cli_finds_a_sample_by_id_and_logs_it(imported):
    repo, ctx = imported
    durable = _legacy_durable(repo)
    for item in durable[:: max(1, len(durable) // 4)][:4]:
        proc = tiergit(repo, "recall", item.text[:300], "--json", env=ctx["env"])
        assert proc.returncode == 0, proc.stderr
        assert item.id in [h["id"] for h in json.loads(proc.stdout)["hits"]]
    log = Store.open(repo).root / "logs" / "recalls.jsonl"
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert {"ts", "query", "agent", "id", "path", "entry", "score", "rank"} <= set(events[0])


def test_no_history_line_is_lost_and_legacy_files_are_untouched(imported):
    repo, ctx = imported
    store = Store.open(repo)
    for path in sorted(repo.glob(".squad/agents/*/history.md")):
        agent = path.parent.name
        legacy_ids = _ids_in([path])
        kept = _ids_in([store.root / "cold" / f"{agent}.md"] + list((store.root / "archive").rglob(f"{agent}.md")))
        assert legacy_ids <= kept, f"{agent}: {len(legacy_ids - kept)} items neither in cold nor archive"
        assert (store.root / "hot" / f"{agent}.md").is_file()
    after = {p.relative_to(repo).as_posix(): p.read_bytes() for p in (repo / ".squad").rglob("*.md")
             if "memory" not in p.parts}
    assert after == ctx["before"]


def test_cold_tiers_fit_their_budget(imported):
    repo, ctx = imported
    for agent in ctx["result"]["agents"]:   # over only with the pinned text, and the fix named
        assert not agent["over_budget"] or any(
            n.startswith(f"{agent['agent']}: cold is over budget") for n in ctx["result"]["notes"]), agent
    proc = tiergit(repo, "check", "--all", env=ctx["env"])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_measure_default_spawn_within_hot_budget_and_saves_80_percent(imported):
    repo, ctx = imported
    proc = tiergit(repo, "measure", "--json", env=ctx["env"])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    agents = data["agents"]
    assert len(agents) == len(list(repo.glob(".squad/agents/*/history.md")))
    for row in agents:
        assert row["within_hot_budget"], row
        assert row["baseline"] == "legacy" and row["legacy"]["tokens"] > row["hot"]["tokens"] > 0
        assert row["hot"]["tokens"] <= row["hot_cold"]["tokens"] <= row["hot_cold_wiki"]["tokens"]
    assert statistics.median(r["saved_pct"] for r in agents) >= 80
    assert data["summary"]["all_within_hot_budget"] is True


def test_second_import_changes_nothing(imported):
    repo, ctx = imported
    proc = tiergit(repo, "import", "squad", "--json", env=ctx["env"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["changes"] == []


def test_context_after_import_fits_and_cold_is_on_demand(imported):
    repo, ctx = imported
    agent = max(ctx["result"]["agents"], key=lambda a: a["cold_tokens"])["agent"]
    new = tiergit(repo, "context", "--agent", agent, "--strict", "--json", env=ctx["env"])
    assert new.returncode == 0, new.stderr
    data = json.loads(new.stdout)
    assert data["over_budget"] == [] and [f["tier"] for f in data["files"]] == ["hot"]
    resume = json.loads(tiergit(repo, "context", "--agent", agent, "--for", "resume", "--json",
                                env=ctx["env"]).stdout)
    assert [f["tier"] for f in resume["files"]] == ["hot", "cold"]
    assert data["stats"]["total"]["tokens"] < resume["stats"]["total"]["tokens"] < resume["stats"]["legacy"]["tokens"]
