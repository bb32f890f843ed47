"""Every git call tiergit makes, in one place (plain subprocess: fast to import in hooks).

`subprocess` and `datetime` are imported inside the functions that use them: the pre-commit
hook's import budget (it reads git through tiergit/shell/spawn.py's posix_spawn, ~10 ms less).
"""
from __future__ import annotations

import os
from collections import namedtuple
from pathlib import Path

from tiergit.errors import TiergitError

TYPE_CHECKING = False   # typing's own flag, without importing typing
if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import date


class GitError(TiergitError):
    pass


def _env() -> dict[str, str]:
    # Inside hooks git exports GIT_INDEX_FILE etc.; keep them (they point at the right
    # index during `commit -a`), but never let a pager or a prompt block a hook.
    env = dict(os.environ)
    env.setdefault("GIT_PAGER", "cat")
    env["GIT_TERMINAL_PROMPT"] = "0"
    return env


def run(args: list[str], cwd: Path | str, check: bool = True, input: bytes | None = None) -> bytes:
    import subprocess

    proc = subprocess.run(
        ["git", *args], cwd=cwd, input=input, capture_output=True, env=_env(),
    )
    if check and proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])} failed: {msg[-1] if msg else proc.returncode}")
    return proc.stdout


def out(args: list[str], cwd: Path | str, check: bool = True) -> str:
    return run(args, cwd, check).decode("utf-8", "replace").strip()


_TOPLEVELS: dict[str, str] = {}   # folder -> its git toplevel, as tiergit.hookentry's rev-parse found it


def seen_toplevel(folder: str, top: str) -> None:
    """The hook entry's own `rev-parse --show-toplevel` run in `folder` (absolute), which
    `toplevel(folder)` takes instead of running it again."""
    _TOPLEVELS[folder] = top


def toplevel(start: Path | str) -> Path:
    known = _TOPLEVELS.get(os.path.abspath(start))
    if known is not None:
        return Path(known)
    if not Path(start).exists():
        raise TiergitError(f"{start}: no such folder", "check the path given to --repo")
    try:
        top = out(["rev-parse", "--show-toplevel"], start)
    except (GitError, FileNotFoundError, NotADirectoryError):
        raise TiergitError(f"{start}: not inside a git work tree",
                           "run tiergit inside a repository, or pass --repo PATH") from None
    return Path(top)


def work_root(start: Path | str) -> Path:
    """The folder tiergit works in: `start` itself when it holds a .tiergit.yml (a store
    in a subfolder of a larger repo, like the shipped example), else the git toplevel."""
    top = toplevel(start)
    start_path = Path(start).resolve()
    if (start_path / ".tiergit.yml").is_file():
        return start_path
    return top


_GIT_DIRS: dict[tuple, Path] = {}   # (folder, $GIT_DIR, $GIT_WORK_TREE) -> its git dir, asked once a process


def git_dir(repo: Path) -> Path:
    """The per-worktree git dir (for caches). Cost: one `git rev-parse` per folder and process (a
    spawn's index, stale marks and caches each asked it: three git processes, ~10 ms CPU)."""
    key = (os.path.abspath(repo), os.environ.get("GIT_DIR"), os.environ.get("GIT_WORK_TREE"))
    found = _GIT_DIRS.get(key)
    if found is None:
        found = _GIT_DIRS[key] = Path(out(["rev-parse", "--absolute-git-dir"], repo))
    return found


def common_dir(repo: Path) -> Path:
    """The shared git dir (hooks and config live here for linked worktrees)."""
    path = Path(out(["rev-parse", "--git-common-dir"], repo))
    return path if path.is_absolute() else (repo / path).resolve()


def hooks_dir(repo: Path) -> Path:
    """Where git looks for hooks: core.hooksPath if set, else <common-dir>/hooks."""
    path = Path(out(["rev-parse", "--git-path", "hooks"], repo))
    return path if path.is_absolute() else (repo / path).resolve()


def config_get(repo: Path, key: str) -> str | None:
    value = out(["config", "--get", key], repo, check=False)
    return value or None


def config_set(repo: Path, key: str, value: str) -> None:
    run(["config", key, value], repo)


def config_unset(repo: Path, key: str) -> None:
    run(["config", "--unset-all", key], repo, check=False)


# Plain named tuples, not dataclasses: the hook imports this module, and `dataclasses` (with
# `inspect`) is the largest import on its path.
# base: the blob HEAD holds at that path (staged_changes of a modified file), else None
IndexEntry = namedtuple("IndexEntry", "mode blob path base", defaults=(None,))


def staged_entries(repo: Path) -> list[IndexEntry]:
    """Files added/copied/modified/renamed in the index relative to HEAD (or all, before the first commit)."""
    changed = staged_changes(repo)
    return index_entries(repo) if changed is None else changed


_SEEN: dict[str, bytes] = {}


def seen_staged(top: str, raw: bytes) -> None:
    """The hook entry's own `diff-index --cached -z HEAD` of the toplevel `top` (tiergit.hookentry),
    which `staged_changes(top)` takes once instead of running the same diff again."""
    _SEEN[top] = raw


def staged_changes(repo: Path) -> list[IndexEntry] | None:
    """What the index adds or changes against HEAD, in one `diff-index` (None before the
    first commit, when there is no HEAD to compare with). The hook's first call."""
    raw = _SEEN.pop(str(repo), None)   # the toplevel itself: `--relative` there changes nothing
    if raw is None:
        import subprocess

        proc = subprocess.run(["git", "diff-index", "--cached", "--relative", "--no-renames", "--diff-filter=ACMRT",
                               "-z", "HEAD"], cwd=repo, capture_output=True, env=_env())
        if proc.returncode != 0:
            if run(["rev-parse", "--verify", "-q", "HEAD"], repo, check=False).strip():
                raise GitError(f"git diff-index failed: {proc.stderr.decode('utf-8', 'replace').strip()}")
            return None
        raw = proc.stdout
    fields = raw.split(b"\0")
    entries = []
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].decode().lstrip(":").split()   # old mode, new mode, old blob, new blob, status
        entries.append(IndexEntry(mode=meta[1], blob=meta[3], path=fields[i + 1].decode("utf-8", "surrogateescape"),
                                  base=meta[2] if meta[4] == "M" else None))
    return entries


def index_entries(repo: Path, paths: list[str] | None = None) -> list[IndexEntry]:
    raw = run(["ls-files", "-s", "-z", "--", *(paths or [])], repo)
    entries = []
    for rec in raw.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, blob, _stage = meta.decode().split()
        entries.append(IndexEntry(mode=mode, blob=blob, path=path.decode("utf-8", "surrogateescape")))
    return entries


def tree_entries(repo: Path, rev: str, paths: list[str] | None = None) -> list[IndexEntry]:
    raw = run(["ls-tree", "-r", "-z", rev, "--", *(paths or [])], repo)
    entries = []
    for rec in raw.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, _type, blob = meta.decode().split()
        entries.append(IndexEntry(mode=mode, blob=blob, path=path.decode("utf-8", "surrogateescape")))
    return entries


def read_blobs(repo: Path, blobs: list[str]) -> dict[str, bytes]:
    """Contents of many blobs with one `git cat-file --batch` process."""
    if not blobs:
        return {}
    unique = list(dict.fromkeys(blobs))
    if hasattr(os, "posix_spawnp"):
        return _spawned_blobs(repo, unique)
    data = run(["cat-file", "--batch"], repo, input=("\n".join(unique) + "\n").encode())
    out_map: dict[str, bytes] = {}
    pos = 0
    for blob in unique:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].split()
        if len(header) < 3 or header[1] == b"missing":
            pos = nl + 1
            continue
        size = int(header[2])
        out_map[blob] = data[nl + 1: nl + 1 + size]
        pos = nl + 1 + size + 1
    return out_map


def _spawned_blobs(repo: Path, names: list[str]) -> dict[str, bytes]:
    """read_blobs through tiergit/shell/spawn.py (no `subprocess` import: the hook's budget)."""
    return {name: data for name, data in iter_blobs(repo, list(dict.fromkeys(names))) if data is not None}


def iter_blobs(repo: Path, names: list[str]) -> Iterator[tuple[str, bytes | None]]:
    """(name, content or None when git has no such object) for each name, in order, repeats
    included, one at a time from one `git cat-file --batch` process: a caller that measures and
    lets go holds one blob, not all (`history` at 50k files read ~480 MB of versions into a dict)."""
    if not names:
        return
    if not hasattr(os, "posix_spawnp"):
        found = read_blobs(repo, names)
        yield from ((name, found.get(name)) for name in names)
        return
    from tiergit.shell.spawn import CatFile

    try:
        reader = CatFile(["-C", str(repo)])
    except OSError as exc:
        raise GitError(f"git cat-file --batch failed: {exc}") from None
    try:
        for name in names:
            try:
                data = reader.get(name)
            except OSError as exc:
                raise GitError(f"git cat-file --batch failed: {exc}") from None
            yield name, data
    finally:
        reader.close()


def index_file(repo: Path, rel: str) -> bytes | None:
    """The staged content of a file (relative to `repo`), or None when it is not in the index."""
    if hasattr(os, "posix_spawnp"):
        from tiergit.shell.spawn import git_output

        code, data = git_output(["-C", str(repo), "cat-file", "blob", f":./{rel}"])
        return data if code == 0 else None
    import subprocess

    proc = subprocess.run(["git", "cat-file", "blob", f":./{rel}"], cwd=repo, capture_output=True, env=_env())
    return proc.stdout if proc.returncode == 0 else None


def changed_files(repo: Path, old: str, new: str) -> list[str]:
    raw = run(["diff", "--name-only", "--relative", "--no-renames", "-z", "--diff-filter=ACMRT", old, new], repo)
    return [p.decode("utf-8", "surrogateescape") for p in raw.split(b"\0") if p]


def rev_parse(repo: Path, rev: str) -> str | None:
    value = out(["rev-parse", "--verify", "-q", rev], repo, check=False)
    return value or None


def blame_dates(repo: Path, path: str, rev: str | None = "HEAD") -> dict[int, date]:
    """1-based line -> author date of the commit that added that line (empty if untracked).
    rev=None blames the working-tree file (uncommitted lines get today's date)."""
    raw = run(["blame", "--line-porcelain", *([rev] if rev else []), "--", path], repo, check=False)
    from datetime import datetime, timezone

    dates: dict[int, date] = {}
    current_line = 0
    for line in raw.decode("utf-8", "replace").splitlines():
        parts = line.split()
        if len(parts) >= 3 and len(parts[0]) == 40 and all(c in "0123456789abcdef" for c in parts[0]):
            current_line = int(parts[2])
        elif line.startswith("author-time "):
            dates[current_line] = datetime.fromtimestamp(int(parts[1]), tz=timezone.utc).date()
    return dates


def current_branch(repo: Path) -> str | None:
    """The checked-out branch name, or None when HEAD is detached."""
    name = out(["symbolic-ref", "--quiet", "--short", "HEAD"], repo, check=False)
    return name or None


def last_version(repo: Path, path: str) -> tuple[str, bytes] | None:
    """(commit, content) of the newest committed version of `path`, even after it was deleted."""
    rev = out(["log", "-1", "--format=%H", "--diff-filter=AMR", "HEAD", "--", path], repo, check=False)
    if not rev:
        return None
    if out(["cat-file", "-t", f"{rev}:{path}"], repo, check=False) != "blob":
        return None  # a folder (tree): `git show` would print its listing as if it were the file
    data = run(["show", f"{rev}:{path}"], repo, check=False)
    return rev, data


def merge_file(ours: Path, base: Path, theirs: Path, labels: tuple[str, str, str]) -> tuple[bytes, int]:
    """`git merge-file -p`: (merged bytes, conflicts); conflicts < 0 when git cannot merge (binary)."""
    import subprocess

    proc = subprocess.run(
        ["git", "merge-file", "-p", "-L", labels[0], "-L", labels[1], "-L", labels[2],
         str(ours), str(base), str(theirs)],
        capture_output=True, env=_env(),
    )
    code = proc.returncode
    return proc.stdout, (code if code < 128 else -1)


# status: A, M, D or T (renames are split into D + A); mode: new mode ("000000" when deleted);
# blob: new blob id ("0" * 40 when deleted); path: relative to the folder git ran in
RawChange = namedtuple("RawChange", "status mode blob path")


# time: committer time (author time with log_changes(author_time=True)), unix seconds;
# changes: a tuple of RawChange
LogCommit = namedtuple("LogCommit", "commit time subject changes")


def log_changes(repo: Path, pathspecs: list[str], rev: str = "HEAD", max_count: int | None = None,
                oldest_first: bool = True, author_time: bool = False) -> list[LogCommit]:
    """Commits along the first-parent line of `rev` that touched `pathspecs`, each with its raw
    diff against its first parent (merges included that way), read from git objects in one
    `git log` call: no checkout, no per-commit process. Empty when `rev` does not exist yet.
    `time` is the committer time, or the author time (blame's date) with author_time=True."""
    if rev_parse(repo, rev) is None:
        return []
    args = ["log", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-renames",
            "--no-abbrev", "--relative", "-z", f"--format=%x01%H%x02{'%at' if author_time else '%ct'}%x02%s"]
    if oldest_first:
        args.append("--reverse")
    if max_count is not None:
        args.append(f"--max-count={max_count}")
    raw = run([*args, rev, "--", *pathspecs], repo)
    commits = []
    for chunk in raw.split(b"\x01")[1:]:
        header, _, rest = chunk.partition(b"\0")
        sha, ctime, subject = header.decode("utf-8", "replace").split("\x02", 2)
        fields = rest.lstrip(b"\n").split(b"\0")
        changes = []
        for i in range(0, len(fields) - 1, 2):
            meta = fields[i].decode().lstrip(":").split()
            if len(meta) < 5:
                continue
            changes.append(RawChange(status=meta[4][0], mode=meta[1], blob=meta[3],
                                     path=fields[i + 1].decode("utf-8", "surrogateescape")))
        commits.append(LogCommit(commit=sha, time=int(ctime), subject=subject, changes=tuple(changes)))
    return commits


def blob_sizes(repo: Path, blobs: list[str]) -> dict[str, int]:
    """Byte sizes of many blobs with one `git cat-file --batch-check` (contents not read)."""
    if not blobs:
        return {}
    unique = list(dict.fromkeys(blobs))
    data = run(["cat-file", "--batch-check"], repo, input=("\n".join(unique) + "\n").encode())
    sizes: dict[str, int] = {}
    for line in data.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "blob":
            sizes[parts[0]] = int(parts[2])
    return sizes


def trees_of(repo: Path, revs: list[str]) -> dict[str, str | None]:
    """Each rev's tree id (None when it names nothing) with one `git cat-file --batch-check`
    (one `rev-parse` a rev cost the staleness check ~4 ms each, for every anchor commit)."""
    unique = [r for r in dict.fromkeys(revs) if r and "\n" not in r]
    if not unique:
        return {}
    data = run(["cat-file", "--batch-check=%(objectname) %(objecttype)"], repo,
               input="".join(f"{r}^{{tree}}\n" for r in unique).encode(), check=False)
    lines = data.decode("utf-8", "replace").splitlines()
    found: dict[str, str | None] = {r: None for r in unique}
    for rev, line in zip(unique, lines):   # one answer line per input line, in order
        parts = line.split()
        if len(parts) == 2 and parts[1] == "tree":
            found[rev] = parts[0]
    return found


def commit_time(repo: Path, rev: str = "HEAD") -> int | None:
    """Committer time of `rev` (unix seconds), None before the first commit."""
    value = out(["log", "-1", "--format=%ct", rev, "--"], repo, check=False)
    return int(value) if value.isdigit() else None


def changed_paths(repo: Path, pathspecs: list[str]) -> list[str]:
    """Modified, deleted and untracked paths under `pathspecs` (work tree vs HEAD)."""
    raw = run(["status", "--porcelain", "-z", "--untracked-files=all", "--", *pathspecs], repo)
    return [rec[3:].decode("utf-8", "surrogateescape") for rec in raw.split(b"\0") if len(rec) > 3]


def commit_paths(repo: Path, pathspecs: list[str], message: str) -> str:
    """Stage everything under `pathspecs` and commit only those paths (hooks run; anything
    else the user had staged stays staged, out of this commit); returns the new HEAD."""
    run(["add", "-A", "--", *pathspecs], repo)
    run(["commit", "-q", "-m", message, "--", *pathspecs], repo)
    return out(["rev-parse", "HEAD"], repo)


def remote_for(repo: Path, branch: str) -> str | None:
    """The branch's upstream remote, else `origin` when it exists, else None."""
    configured = config_get(repo, f"branch.{branch}.remote")
    if configured:
        return configured
    remotes = out(["remote"], repo, check=False).split()
    return "origin" if "origin" in remotes else None


def default_branch(repo: Path, remote: str) -> str | None:
    """The remote's default branch as recorded by clone (refs/remotes/<remote>/HEAD)."""
    ref = out(["symbolic-ref", "--quiet", "--short", f"refs/remotes/{remote}/HEAD"], repo, check=False)
    return ref.split("/", 1)[1] if "/" in ref else None


def push_branch(repo: Path, remote: str, branch: str) -> None:
    run(["push", "--quiet", "--set-upstream", remote, f"HEAD:refs/heads/{branch}"], repo)


def path_time(repo: Path, rel: str) -> int | None:
    """Committer time (unix seconds) of the newest commit on HEAD that touched `rel`; None if none."""
    value = out(["log", "-1", "--format=%ct", "HEAD", "--", rel], repo, check=False)
    return int(value) if value.isdigit() else None


def deleted_blobs(repo: Path, pathspecs: list[str], rev: str = "HEAD") -> dict[str, tuple[str, str]]:
    """path -> (blob, commit) for files under `pathspecs` that a commit of `rev` deleted: the
    blob it held and the commit that removed it (the newest such, for a path deleted twice).
    One `git log` call; blob ids are stable, so callers cache by them."""
    if rev_parse(repo, rev) is None:
        return {}
    raw = run(["log", "--diff-filter=D", "--raw", "--no-renames", "--no-abbrev", "--relative", "-z",
               "--format=%x01%H", rev, "--", *pathspecs], repo)
    found: dict[str, tuple[str, str]] = {}
    for chunk in raw.split(b"\x01")[1:]:
        header, _, rest = chunk.partition(b"\0")
        sha = header.decode().strip()
        fields = rest.lstrip(b"\n").split(b"\0")
        for i in range(0, len(fields) - 1, 2):
            meta = fields[i].decode().lstrip(":").split()
            if len(meta) >= 5 and meta[4].startswith("D"):
                path = fields[i + 1].decode("utf-8", "surrogateescape")
                found.setdefault(path, (meta[2], sha))   # newest first: keep the first seen
    return found


def check_ignore(repo: Path, paths: list[str]) -> dict[str, str]:
    """path -> "SOURCE:LINE: PATTERN" for each of `paths` (repo-relative) that git ignores,
    tracked or not (`git check-ignore -v --no-index`, one process)."""
    if not paths:
        return {}
    import subprocess

    proc = subprocess.run(["git", "check-ignore", "-v", "-z", "--no-index", "--stdin"], cwd=repo,
                          input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths),
                          capture_output=True, env=_env())
    fields = proc.stdout.split(b"\0")
    found: dict[str, str] = {}
    for i in range(0, len(fields) - 3, 4):
        source, line, pattern, path = (f.decode("utf-8", "surrogateescape") for f in fields[i:i + 4])
        if source and not pattern.startswith("!"):
            found[path] = f"{source}:{line}: {pattern}"
    return found


def on_a_remote_branch(repo: Path, rev: str) -> bool | None:
    """Whether any remote-tracking branch contains `rev` (None: git could not tell, e.g. no remotes)."""
    remotes = out(["remote"], repo, check=False).split()
    if not remotes:
        return None
    found = out(["branch", "-r", "--contains", rev, "--format=%(refname)"], repo, check=False)
    return bool(found.strip())


def tree_paths(repo: Path, rev: str) -> frozenset[str]:
    """Every file path in `rev`'s whole tree, relative to the repository root. Cost: one `git ls-tree`
    (about 10 ms per 10k files)."""
    raw = run(["ls-tree", "-r", "--full-tree", "--name-only", "-z", rev], repo, check=False)
    return frozenset(p.decode("utf-8", "surrogateescape") for p in raw.split(b"\0") if p)


def words_in_tree(repo: Path, rev: str, words: list[str], exclude: tuple[str, ...] = ()) -> frozenset[str]:
    """Which of `words` occur as whole words in any text file of `rev` (case-sensitive), outside the
    repo-relative folders and files in `exclude`. Cost: one `git grep` over the tree (tens of ms for a
    few thousand files), whatever the number of words."""
    if not words:
        return frozenset()
    skip = [f":(exclude){p}" for p in exclude]   # relative to `repo`, like the config's paths
    import subprocess

    proc = subprocess.run(["git", "grep", "-I", "-o", "-h", "-w", "-F", "-f", "-", rev, "--", ":/", *skip],
                          cwd=repo, input="\n".join(words).encode("utf-8") + b"\n", capture_output=True, env=_env())
    found = {line.decode("utf-8", "replace") for line in proc.stdout.splitlines()}
    return frozenset(w for w in words if w in found)


def renames_between(repo: Path, old: str, new: str) -> dict[str, str]:
    """Old path -> new path for every file git's rename detection sees moved from `old` to `new`.
    Cost: one `git diff -M` (name-status only)."""
    raw = run(["diff", "-M", "--name-status", "-z", "--diff-filter=R", old, new], repo, check=False)
    fields = [f.decode("utf-8", "surrogateescape") for f in raw.split(b"\0") if f]
    out: dict[str, str] = {}
    for i in range(0, len(fields) - 2, 3):
        if fields[i].startswith("R"):
            out[fields[i + 1]] = fields[i + 2]
    return out


def mainline(repo: Path, rev: str = "HEAD") -> list[tuple[int, str]]:
    """(committer time, commit) of `rev`'s first-parent history, oldest first. Cost: one `git log`."""
    raw = out(["log", "--first-parent", "--reverse", "--format=%ct %H", rev], repo, check=False)
    pairs = [line.split() for line in raw.splitlines() if line.strip()]
    return [(int(t), c) for t, c in pairs]
