"""git.read_blobs and git.index_file as the hook reads them: through one posix_spawn'd
`cat-file --batch` (tiergit/shell/spawn.py), answers read one at a time, so a blob larger than a
pipe's buffer, a missing id and an unstaged edit are each read as git has them."""
from __future__ import annotations

import subprocess
import sys

from conftest import git, write

from tiergit.shell import git as git_mod


def _blob_id(repo, data: bytes) -> str:
    return subprocess.run(["git", "hash-object", "--stdin"], cwd=repo, input=data, capture_output=True,
                          check=True).stdout.decode().strip()


def test_read_blobs_reads_large_and_small_blobs_and_skips_missing_ones(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q")
    big = ("- a line long enough to fill pipes quickly, with a number %d\n" * 5000 % tuple(range(5000))).encode()
    small, empty = b"# Hot\n\n- one\n", b""
    for name, data in (("big.md", big), ("small.md", small), ("empty.md", empty)):
        (repo / name).write_bytes(data)
    git(repo, "add", "-A")
    ids = [_blob_id(repo, d) for d in (big, small, empty)]
    missing = "0" * 40
    got = git_mod.read_blobs(repo, [ids[0], missing, ids[1], ids[0], ids[2]])
    assert len(big) > 256 * 1024
    assert got == {ids[0]: big, ids[1]: small, ids[2]: empty}
    if sys.platform != "win32":   # the spawned reader is the path taken; subprocess's the reference
        assert got == git_mod._spawned_blobs(repo, [ids[0], ids[1], ids[2]])
    # one at a time, in the order asked, repeats and missing ids included (history, the blame walk)
    assert list(git_mod.iter_blobs(repo, [ids[1], missing, ids[0], ids[1]])) == [
        (ids[1], small), (missing, None), (ids[0], big), (ids[1], small)]
    reader = git_mod.iter_blobs(repo, [ids[0], ids[1]])
    assert next(reader) == (ids[0], big)
    reader.close()   # let go part-way: the cat-file process is waited for, not left behind


def test_index_file_is_the_staged_text_not_the_work_tree(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / "sub" / ".tiergit.yml", "version: 1\n")
    git(repo, "add", "-A")
    write(repo / "sub" / ".tiergit.yml", "version: 2\n")   # an unstaged edit
    assert git_mod.index_file(repo, "sub/.tiergit.yml") == b"version: 1\n"
    assert git_mod.index_file(repo / "sub", ".tiergit.yml") == b"version: 1\n"
    assert git_mod.index_file(repo, "absent.yml") is None


def test_trees_of_resolves_many_revs_in_one_call_and_none_for_what_names_nothing(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q")
    assert git_mod.trees_of(repo, ["HEAD"]) == {"HEAD": None}          # before the first commit
    ids = []
    for n in range(2):
        write(repo / "a.md", f"# a\n\n- {n}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", str(n))
        ids.append(subprocess.run(["git", "rev-parse", "HEAD^{tree}"], cwd=repo, capture_output=True, text=True,
                                  check=True).stdout.strip())
    got = git_mod.trees_of(repo, ["HEAD~1", "nope", "HEAD", "HEAD~1", "0" * 40])
    assert got == {"HEAD~1": ids[0], "nope": None, "HEAD": ids[1], "0" * 40: None}
