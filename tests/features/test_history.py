"""`tiergit history`: sizes per tier and file at every commit that touched the store, read
from git objects (real repos, real commits and merges)."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import git, tiergit, traced_peak, write

from tiergit.features import history
from tiergit.shell.store import Store
from tiergit.shell.tokens import count_text

MEM = ".squad/memory"
LEGACY = ".squad/agents/picard/history.md"
HOT, COLD, WIKI = f"{MEM}/hot/picard.md", f"{MEM}/cold/picard.md", f"{MEM}/wiki/auth.md"


def commit(repo: Path, message: str, files: dict[str, str | None]) -> str:
    for rel, text in files.items():
        if text is None:
            git(repo, "rm", "-q", rel)
        else:
            write(repo / rel, text)
            git(repo, "add", rel)
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def run_json(repo: Path, *args: str) -> dict:
    """The --json model, computed in-process (fast); the CLI itself is run where it matters."""
    opts = dict(zip(args[::2], args[1::2])) if "--exact" not in args else {}
    model = history.collect(Store.open(repo), since=opts.get("--since"), agent=opts.get("--agent"),
                            exact="--exact" in args)
    return json.loads(json.dumps(model))


def build(repo: Path) -> list[str]:
    """legacy -> hot -> cold+hot -> unrelated -> merge adding wiki -> hot deleted."""
    first = (Path(__file__).parents[1] / "fixtures/squad/.squad/agents/vox/history.md").read_text()
    second = first + "\n### Tab completion (2026-03-28)\n\n**Fix:** complete agent names from team.md.\n"
    shas = [commit(repo, "legacy history", {LEGACY: first})]
    shas.append(commit(repo, "session start", {HOT: "# picard\n\n## Current task\n- a\n"}))
    shas.append(commit(repo, "session end", {HOT: "# picard\n", COLD: "# cold\n\n### Fix (2026-05-01)\n- b\n",
                                             LEGACY: second}))
    commit(repo, "docs only", {"docs.md": "not memory\n"})
    git(repo, "checkout", "-q", "-b", "wiki-branch")
    commit(repo, "promote", {WIKI: "# auth\n\n- [rule] rotate\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "docs again", {"docs.md": "still not memory\n"})
    git(repo, "merge", "-q", "--no-ff", "--no-edit", "wiki-branch")
    shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    shas.append(commit(repo, "reset hot", {HOT: None}))
    return shas


def test_sizes_at_every_store_commit(squad_repo):
    shas = build(squad_repo)
    model = run_json(squad_repo)
    points = model["commits"]
    # the init commit (config, templates) touches the store root too, if it adds files there
    points = [p for p in points if p["commit"] in shas]
    assert [p["commit"] for p in points] == shas               # oldest first; docs-only commits skipped
    assert [p["subject"] for p in points][-2].startswith("Merge branch 'wiki-branch'")
    legacy_v2 = (squad_repo / LEGACY).read_bytes()
    after_end = points[2]
    assert after_end["files"][HOT] == {"bytes": 9, "lines": 1, "tokens": after_end["files"][HOT]["tokens"],
                                       "tokens_exact": after_end["files"][HOT]["tokens_exact"]}
    assert after_end["files"][COLD]["bytes"] == len("# cold\n\n### Fix (2026-05-01)\n- b\n")
    assert after_end["files"][COLD]["lines"] == 4
    assert after_end["legacy"]["bytes"] == len(legacy_v2) and after_end["legacy"]["files"] == 1
    assert after_end["tiers"]["hot"]["bytes"] == 9 and after_end["tiers"]["cold"]["files"] == 1
    assert sorted(after_end["changed"]) == sorted([HOT, COLD, LEGACY])
    merge = points[3]                                            # the merge shows its diff against main
    assert merge["changed"] == [WIKI] and merge["tiers"]["wiki"]["bytes"] == len("# auth\n\n- [rule] rotate\n")
    last = points[4]
    assert last["files"][HOT] is None and HOT not in history.file_state(model)   # a point lists its changes only
    assert last["tiers"]["hot"] == {"files": 0, "bytes": 0, "lines": 0, "tokens": 0,
                                                                 "tokens_exact": True}
    assert model["files"][LEGACY] == {"tier": None, "agent": "picard", "legacy": True}
    assert model["files"][HOT] == {"tier": "hot", "agent": "picard", "legacy": False}


def test_reads_git_objects_only_and_is_identical_across_runs(squad_repo):
    build(squad_repo)
    write(squad_repo / COLD, "# uncommitted edit, history must not see it\n" * 50)
    before = git(squad_repo, "status", "--porcelain").stdout
    index_mtime = (squad_repo / ".git" / "index").stat().st_mtime_ns
    first = tiergit(squad_repo, "history", "--json").stdout
    second = tiergit(squad_repo, "history", "--json").stdout
    text1, text2 = tiergit(squad_repo, "history").stdout, tiergit(squad_repo, "history").stdout
    assert first == second and text1 == text2
    assert "uncommitted" not in first
    assert json.loads(first)["latest"][COLD]["bytes"] == len("# cold\n\n### Fix (2026-05-01)\n- b\n")
    assert (squad_repo / ".git" / "index").stat().st_mtime_ns == index_mtime   # index untouched
    assert git(squad_repo, "status", "--porcelain").stdout == before


def test_tokens_exact_from_the_blob_cache_else_labelled_estimates(squad_repo):
    build(squad_repo)
    cold_text = (squad_repo / COLD).read_text()
    model = run_json(squad_repo)
    assert model["tokens_exact"] is False
    assert model["latest"][COLD]["tokens_exact"] is False
    assert "~" in tiergit(squad_repo, "history").stdout
    assert tiergit(squad_repo, "status", "--deep").returncode == 0   # caches today's blobs by id
    model = run_json(squad_repo)
    cold = model["latest"][COLD]
    assert cold["tokens_exact"] is True and cold["tokens"] == count_text(cold_text, "cl100k_base").tokens
    old_legacy = model["commits"][0]["files"][LEGACY]
    assert old_legacy["tokens_exact"] is False                      # an old version: not in the cache
    exact = run_json(squad_repo, "--exact")
    assert exact["tokens_exact"] is True
    assert all(f["tokens_exact"] for p in exact["commits"] for f in p["files"].values() if f)
    assert run_json(squad_repo)["tokens_exact"] is True             # --exact filled the cache


def test_since_and_agent_filters_and_bad_input(squad_repo):
    build(squad_repo)
    commit(squad_repo, "data hot", {f"{MEM}/hot/data.md": "# data\n"})
    everything = run_json(squad_repo)
    data_only = run_json(squad_repo, "--agent", "data")
    assert list(data_only["files"]) == [f"{MEM}/hot/data.md"]
    assert [p["subject"] for p in data_only["commits"]] == ["data hot"]
    picard = run_json(squad_repo, "--agent", "picard")
    assert set(picard["files"]) == {LEGACY, HOT, COLD}
    future = run_json(squad_repo, "--since", "2999-01-01")
    assert future["commits"] == [] and len(everything["commits"]) >= 6
    assert run_json(squad_repo, "--since", "2000-01-01")["commits"] == everything["commits"]
    bad = tiergit(squad_repo, "history", "--since", "last tuesday")
    assert bad.returncode == 2 and "--since 'last tuesday': not a date" in bad.stderr and "Traceback" not in bad.stderr
    bad = tiergit(squad_repo, "history", "--agent", "../etc")
    assert bad.returncode == 2 and "invalid agent name" in bad.stderr


def test_renames_empty_repo_and_text_output(squad_repo, tmp_path):
    commit(squad_repo, "hot", {HOT: "# picard\n- x\n"})
    git(squad_repo, "mv", HOT, f"{MEM}/hot/riker.md")
    git(squad_repo, "commit", "-q", "--no-verify", "-m", "rename")
    last = run_json(squad_repo)["commits"][-1]
    assert last["files"].get(HOT) is None and last["files"][f"{MEM}/hot/riker.md"]["bytes"] == 13
    text = tiergit(squad_repo, "history").stdout
    assert "hot bytes" in text and "legacy bytes" in text and f"{MEM}/hot/riker.md" in text
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q", "-b", "main")
    assert tiergit(empty, "init", "--preset", "squad").returncode == 0
    proc = tiergit(empty, "history")
    assert proc.returncode == 0 and "no commit touched the store" in proc.stdout


def test_store_in_a_subfolder_and_openclaw_memory_md(repo):
    sub = repo / "team"
    sub.mkdir()
    write(sub / ".tiergit.yml", "version: 1\npreset: openclaw\n")   # a store in a subfolder
    write(sub / "MEMORY.md", "# Memory\n- [rule] one\n")
    write(sub / ".tiergit/hot/MEMORY.md", "# hot\n")
    write(repo / "MEMORY.md", "# the outer repo's own file: not this store's\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "store in a subfolder")
    model = run_json(sub)
    assert model["files"]["MEMORY.md"] == {"tier": "cold", "agent": None, "legacy": True}
    point = model["commits"][-1]
    assert point["files"]["MEMORY.md"]["bytes"] == len("# Memory\n- [rule] one\n")
    assert point["legacy"]["bytes"] == point["tiers"]["cold"]["bytes"]
    assert set(point["files"]) == {"MEMORY.md", ".tiergit/hot/MEMORY.md"}


def test_file_sparks_follow_the_last_versions(squad_repo):
    for i in range(1, 26):
        commit(squad_repo, f"v{i}", {HOT: "x" * i * 10 + "\n"})
    sparks = history.file_sparks(Store.open(squad_repo), last=20)
    assert sparks[HOT] == [i * 10 + 1 for i in range(6, 26)]
    proc = tiergit(squad_repo, "status", "--json")
    row = next(f for f in json.loads(proc.stdout)["files"] if f["path"] == HOT)
    assert row["spark_bytes"] == sparks[HOT] and len(row["spark"]) == 20
    assert row["spark"][0] == "▁" and row["spark"][-1] == "█"
    assert "growth" in tiergit(squad_repo, "status").stdout


def test_json_points_carry_changes_only_and_replay_to_the_latest_state(squad_repo):
    for i in range(6):
        commit(squad_repo, f"agent {i}", {f"{MEM}/cold/a{i}.md": f"# a{i}\n\n- fact {i}\n"})
    commit(squad_repo, "grow a0", {f"{MEM}/cold/a0.md": "# a0\n\n- fact 0\n- fact 0b\n"})
    model = run_json(squad_repo)
    last = model["commits"][-1]
    # The output grows with what changed, not with the store at every commit.
    assert list(last["files"]) == [f"{MEM}/cold/a0.md"]
    assert history.file_state(model) == model["latest"]
    assert len(model["latest"]) == 6 and last["tiers"]["cold"]["files"] == 6
    assert last["tiers"]["cold"]["bytes"] == sum(f["bytes"] for f in model["latest"].values())
    assert history.series(model, f"{MEM}/cold/a5.md")[-2:] == [len("# a5\n\n- fact 5\n")] * 2


def test_versions_are_measured_as_they_are_read(squad_repo):
    """`history` read every version of every file into one dict before measuring any (a 50k store's
    ~480 MB); each version is measured as git hands it over now, so the peak stays under their bytes."""
    body = "".join(f"- [fact] the nightly job {n} reads the whole cache\n" for n in range(200))
    for version in range(2):
        for i in range(150):
            write(squad_repo / ".squad" / "memory" / "cold" / f"c{i}.md", f"# c{i}\n\n### v{version}\n\n{body}")
        git(squad_repo, "add", "-A")
        git(squad_repo, "commit", "-qm", f"version {version}")
    total = 2 * 150 * len(body)
    store = Store.open(squad_repo)
    history.collect(store)   # imports and the token cache's first load
    model, peak = traced_peak(history.collect, store)
    assert model["latest"][".squad/memory/cold/c3.md"]["bytes"] == len(f"# c3\n\n### v1\n\n{body}")
    assert peak < total // 2, f"peak {peak} bytes for {total} bytes of versions"
