"""JSON Lines logs: appended under a lock that lives in the git dir, never in the commit."""
from __future__ import annotations

from conftest import git

from tiergit.shell import logs
from tiergit.shell.store import Store


def test_appending_leaves_no_lock_file_in_the_work_tree(squad_repo):
    store = Store.open(squad_repo)
    logs.append(store, logs.RECALLS, [{"query": "q", "id": "m-1"}])
    logs.append(store, logs.REVIEWS, [{"id": "m-1", "action": "proposed"}])
    untracked = git(squad_repo, "status", "--porcelain", "--untracked-files=all").stdout.split("\n")
    paths = sorted(line[3:] for line in untracked if line)
    assert paths == [".squad/memory/logs/recalls.jsonl", ".squad/memory/logs/reviews.jsonl"]
    assert [e["id"] for e in logs.read(store, logs.RECALLS)] == ["m-1"]
    assert (squad_repo / ".git" / "tiergit" / "locks" / "store.lock").exists()


def test_a_commit_of_given_paths_leaves_other_staged_files_out(squad_repo):
    from tiergit.shell import git as gitmod

    (squad_repo / "unrelated.txt").write_text("staged by the user\n")
    git(squad_repo, "add", "unrelated.txt")
    wiki = squad_repo / ".squad/memory/wiki/rules.md"
    wiki.write_text("# Rules\n\n- [rule] keep it short\n")
    gitmod.commit_paths(squad_repo, [".squad/memory"], "promotion")
    committed = git(squad_repo, "show", "--name-only", "--format=", "HEAD").stdout.split()
    assert committed == [".squad/memory/wiki/rules.md"]
    assert git(squad_repo, "diff", "--cached", "--name-only").stdout.split() == ["unrelated.txt"]
