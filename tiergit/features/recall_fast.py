"""`tiergit recall` without the CLI framework or the config parser, when the index is fresh.

Agents run `tiergit recall` once per question, so most of a warm query's cost was start-up:
click (~35 ms), the config's YAML (~25 ms) and the config model. The full path leaves a
`fastpath` row in the index (the repo, the config file's key, the default and allowed tiers,
the recall log's path); this path answers only when that row still holds for the config
file's bytes, no folder of the last walk changed, every indexed file has its indexed stat and
the archive's history rows are at HEAD. Anything else (a changed file, an unknown option, a
bad tier or agent name, an empty query) returns None and the full CLI runs, so output,
errors and re-indexing stay the full path's.

Cost: one `git rev-parse`, one stat per folder and per indexed file, the FTS5 query; imports
sqlite3 and the search modules, never click, PyYAML, markdown-it, the config, recall_index
(its parser tables and progress bars), typing or OpenSSL's hashlib (sha1 from `_sha1`).
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import sys
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.features import file_stamps
from tiergit.shell import listing, statedir
from tiergit.shell.spawn import git_output

# Both equal their originals (tests/test_recall_fast.py), which this path does not import:
SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*\Z")   # tiergit.core.configschema.SLUG
INDEX_NAME = "recall-v5.sqlite"                  # tiergit.features.recall_index.INDEX_NAME

VALUE_OPTIONS = {"--agent": "agent", "--tier": "tiers", "-n": "limit"}
FLAGS = {"--full": "full", "--no-log": "no_log", "--json": "as_json", "--include-spawned": "include_spawned"}


def parse_args(args: list[str]) -> dict | None:
    """The recall options from argv (after `recall`), or None for anything the full CLI must
    handle (help, unknown or repeated options, `--`, `--opt=value`, a bad -n)."""
    opts: dict = {"agent": None, "tiers": [], "limit": 10, "full": False, "no_log": False, "as_json": False,
                  "include_spawned": False, "words": []}
    seen: set[str] = set()
    it = iter(args)
    for arg in it:
        if arg in FLAGS:
            opts[FLAGS[arg]] = True
        elif arg in VALUE_OPTIONS:
            value = next(it, None)
            if value is None or (arg != "--tier" and arg in seen):
                return None
            seen.add(arg)
            if arg == "--tier":
                opts["tiers"].append(value)
            elif arg == "-n":
                if not re.fullmatch(r"[1-9][0-9]{0,5}", value):
                    return None
                opts["limit"] = int(value)
            else:
                opts["agent"] = value
        elif arg.startswith("-"):
            return None
        else:
            opts["words"].append(arg)
    if not opts["words"] or (opts["agent"] is not None and (not SLUG.match(opts["agent"]) or ".." in opts["agent"])):
        return None
    return opts


def main(args: list[str], cwd: str | None = None) -> int | None:
    """Answer `recall ARGS` when the index is fresh; None to hand over to the full CLI."""
    if os.environ.get("TIERGIT_RECALL_FAST") == "0" or "GIT_DIR" in os.environ or "GIT_WORK_TREE" in os.environ:
        return None
    opts = parse_args(args)
    if opts is None:
        return None
    cwd = cwd or os.getcwd()
    try:
        lines = _rev_parse(cwd)
    except (TiergitError, OSError):
        return None
    if len(lines) != 3:
        return None
    top, git_dir, head = lines
    repo = Path(cwd).resolve() if os.path.isfile(os.path.join(cwd, ".tiergit.yml")) else Path(top)
    path = statedir.under(Path(git_dir)) / INDEX_NAME
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        db.execute("BEGIN")   # one snapshot for the checks and the query, whatever a writer does
        return _answer(db, repo, head, opts, statedir.under(Path(git_dir)))
    except sqlite3.Error:
        return None   # an old or damaged index: the full path rebuilds it
    finally:
        db.close()


def _answer(db: sqlite3.Connection, repo: Path, head: str, opts: dict, state: Path) -> int | None:
    row = db.execute("SELECT value FROM fastpath WHERE id = 1").fetchone()
    cfg = json.loads(row[0]) if row else None
    if not cfg or cfg["repo"] != str(repo):
        return None
    chosen = opts["tiers"] or cfg["default"]
    if any(t not in cfg["allowed"] for t in chosen):
        return None
    skip = _fresh(db, repo, cfg, head, chosen)
    if skip is None:
        return None
    from tiergit.features import recall

    from tiergit.shell import spawncarried

    text = " ".join(opts["words"]).strip()
    carried = frozenset() if opts["include_spawned"] else spawncarried.read(state, opts["agent"])
    try:
        hits = recall.search(db, text, chosen, opts["agent"], opts["limit"], skip=skip, leave_out=carried)
    except TiergitError:
        return None
    if any(not h.kind for h in hits) and not _judge(db, repo, cfg, hits, state / INDEX_NAME):
        return None
    if not opts["no_log"] and hits:
        from tiergit.shell import logs

        logs.append_at(repo, Path(cfg["log"]), recall.log_events(text, opts["agent"], hits))
    files = db.execute("SELECT count(*) FROM files").fetchone()[0]   # as a warm full refresh counts
    if hits:    # the stale / superseded notes the last full check at this HEAD left (features/staleness.py)
        from tiergit.shell import stalemarks

        marks = stalemarks.read(state, head)
        for h in hits:
            h.relation = marks.get(f"{h.path}:{h.line}", "")
    out = recall.render(text, opts["agent"], hits, files, opts["full"], opts["as_json"], not opts["no_log"])
    sys.stdout.write(out)
    sys.stdout.flush()
    if carried:
        sys.stderr.write(spawncarried.note(len(carried)))
    return 0


def _rev_parse(cwd: str) -> list[str]:
    """`git rev-parse --show-toplevel --absolute-git-dir HEAD`, as git.out gives it, split in lines.
    POSIX: one posix_spawn and a pipe (importing subprocess cost ~6 ms of a ~100 ms query)."""
    args = ["rev-parse", "--show-toplevel", "--absolute-git-dir", "HEAD"]
    if os.name == "nt" or not hasattr(os, "posix_spawnp"):
        from tiergit.shell import git

        return git.out(args, cwd).splitlines()
    code, out = git_output(["-C", cwd, *args])
    if code != 0:
        return []   # not a repository, or no HEAD yet: the full CLI says so
    return out.decode("utf-8", "replace").strip().splitlines()


def _sha1(data: bytes) -> str:
    from tiergit.core.sha1 import sha1

    return sha1(data).hexdigest()


def _judge(db: sqlite3.Connection, repo: Path, cfg: dict, hits: list, index: Path) -> bool:
    """Judge the kinds a large build left unjudged (features/recall_kinds.py) and keep them in the
    index: True when every hit has its kind. The read snapshot ends first: the writer needs the lock."""
    if "labels" not in cfg:
        return False
    from tiergit.features import recall_kinds
    from tiergit.shell.readsafe import read_regular   # a FIFO or device is an error, never a hang

    def read(rel: str) -> bytes:
        if (repo / rel).is_symlink():   # the full path reads links inside the repo and says why of others
            raise TiergitError(f"{rel}: a symlink")
        return read_regular(repo / rel, rel)

    db.execute("COMMIT")
    rw = sqlite3.connect(index, timeout=30, isolation_level=None)
    try:
        recall_kinds.judge(rw, hits, read, cfg["labels"], cfg["max_bytes"])
    finally:
        rw.close()
    db.execute("BEGIN")
    return all(h.kind for h in hits)


def _fresh(db: sqlite3.Connection, repo: Path, cfg: dict, head: str,
           chosen: list[str]) -> list[tuple[int, int]] | None:
    """When the config file, the folders and every indexed file are as the index saw them: the
    rowid ranges [first, end) of the indexed files whose tier is not chosen (recall.search's
    `skip`); else None."""
    try:
        with open(cfg["config"], "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    key = _sha1(data + cfg["store_dir"].encode())
    row = db.execute("SELECT listing FROM summary WHERE id = 1").fetchone()
    walked = listing.Listing.folders_from_json(row[0]) if row and row[0] else None
    if key != cfg["key"] or walked is None or walked.key != key or not listing.dirs_unchanged(repo, walked):
        return None
    if "archive" in chosen:
        got = db.execute("SELECT head FROM history_head WHERE id = 1").fetchone()
        if not got or got[0] != head:
            return None
    ranges = file_stamps.fresh_ranges(db, str(repo))   # None unless every indexed file has the stat the index saw
    if ranges is None:
        return None
    return sorted((first, end) for tier, spans in ranges.items() if tier not in chosen for first, end in spans)
