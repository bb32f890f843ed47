"""Gather memory files (staged blobs, the work tree, or given paths) and check them."""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath

from tiergit.core import jsonlog
from tiergit.core.config import Config
from tiergit.core.diagnostics import Finding
from tiergit.core.record import record_class
from tiergit.errors import InputError, TiergitError
from tiergit.features import secretscope
from tiergit.features.checks import FileReport, check_file
from tiergit.shell import git
from tiergit.shell.readsafe import read_regular
from tiergit.shell.tokens import TokenCache, blob_id

TYPE_CHECKING = False   # typing's own flag: the hook never opens a Store (~5 ms of imports)
if TYPE_CHECKING:
    from tiergit.shell.store import Store


@record_class
class CheckSource:
    """One file to check: its path, its bytes (staged blob or work tree) and blob id."""
    path: str            # repo-relative
    data: bytes | None   # None when unreadable (finding explains)
    blob: str | None
    problem: Finding | None = None
    base: tuple[str, bytes] | None = None   # (blob id, bytes) HEAD holds: its token count is kept


def staged_sources(repo: Path, config: Config, staged: list | None = None,
                   cache: TokenCache | None = None) -> list[CheckSource]:
    """Staged memory files, read as blobs from the index (never the work tree).
    `staged`: the entries `git.staged_changes` already listed (None: list them here).
    `cache`: where a staged blob's count is missing and HEAD's version's is kept, that version
    is read too (in the same cat-file process): only what the commit changed is counted."""
    # Submodules (160000) have no blob to read; symlinks (120000) are read for their target.
    staged = staged if staged is not None else git.staged_entries(repo)
    entries = [e for e in staged if e.mode != "160000"
               and (config.tier_for(e.path) or secretscope.in_scope(config, e.path)
                    or jsonlog.is_owned(config, e.path))]
    # a link anywhere in the store (a folder, the recall log) is refused like a linked memory file
    inside = store_prefixes(config)
    entries += [e for e in staged if e.mode == "120000" and e not in entries
                and any(e.path == p or e.path.startswith(p + "/") for p in inside)]
    bases = {e.blob: e.base for e in entries if cache is not None and e.base and e.mode != "120000"
             and config.tier_for(e.path) and e.blob not in cache and e.base in cache}
    blobs = git.read_blobs(repo, [e.blob for e in entries] + list(bases.values()))   # one cat-file process for all
    sources: list[CheckSource] = []
    for e in entries:
        if e.mode == "120000":
            target = blobs.get(e.blob, b"").decode("utf-8", "replace")
            sources.append(CheckSource(e.path, None, e.blob, _symlink_finding(repo, e.path, target)))
        else:
            base = bases.get(e.blob)
            sources.append(CheckSource(e.path, blobs.get(e.blob, b""), e.blob,
                                       base=(base, blobs[base]) if base in blobs else None))
    return sources


def store_prefixes(config: Config) -> list[str]:
    """Repo-relative folders that belong to the store: its root, else (root ".") the tier
    folders, the archive and the logs."""
    root = config.repo_path(".")
    if root not in ("", "."):
        return [root]
    folders = [config.repo_path(t.path.split("{", 1)[0]).rsplit("/", 1)[0] for t in config.tiers.values()]
    return sorted({f for f in [*folders, config.repo_path(config.archive), config.repo_path(config.logs)]
                   if f not in ("", ".")})


def _symlink_finding(repo: Path, rel: str, target: str) -> Finding | None:
    joined = os.path.normpath(PurePosixPath(rel).parent / target) if not target.startswith("/") else target
    resolved = (repo / joined).resolve()
    try:
        resolved.relative_to(repo.resolve())
        return Finding(rel, 1, "TG004", "critical", f"memory file is a symlink (to {target})",
                       "memory files must be regular files: replace the link with the file itself")
    except ValueError:
        return Finding(rel, 1, "TG004", "critical", f"symlink points outside the repository ({target})",
                       "replace the link with a regular file inside the store")


def worktree_sources(store: Store, paths: list[str] | None = None) -> Iterator[CheckSource]:
    """Each file read as the check reaches it: a list of every file's bytes was a 50k store's
    whole text (~430 MB) held before the first check ran."""
    rels = paths if paths is not None else store.memory_files() + secretscope.extra_files(store)
    for rel in rels:
        full = store.abs(rel)
        if full.is_symlink():
            yield CheckSource(rel, None, None, _symlink_finding(store.repo, rel, os.readlink(full)))
            continue
        try:
            data = read_regular(full, rel)  # a FIFO or device is a finding, never a hang
        except InputError as exc:
            yield CheckSource(rel, None, None, Finding(rel, exc.line, exc.code, "critical", exc.detail, exc.hint or ""))
            continue
        except OSError as exc:
            yield CheckSource(rel, None, None, Finding(rel, 1, "TG005", "critical", f"cannot read: {exc.strerror}",
                                                      "check the file's permissions"))
            continue
        yield CheckSource(rel, data, blob_id(data))


def run_checks(sources: Iterable[CheckSource], config: Config, cache: TokenCache,
               cache_in: Path | None = None) -> list[FileReport]:
    """`cache_in`: the repo whose content-findings cache to use (`check` on the work tree);
    None for staged blobs (the hook reads each once, and stays lean)."""
    judged = None
    if cache_in is not None:
        from tiergit.features.checks import CONTENT_JUDGES
        from tiergit.shell.check_cache import CheckCache

        judged = CheckCache.for_repo(cache_in, (*CONTENT_JUDGES, secretscope, jsonlog))
    reports = []
    for src in sources:
        match = config.tier_for(src.path)
        if match is None:
            if src.problem is not None:   # a link in the store that is not a memory file
                reports.append(FileReport(src.path, None, None, [src.problem]))  # type: ignore[arg-type]
            # Not a tier file: tiergit's own logs and, under the store root or a legacy file, the
            # secret check; reported (and counted) only when it finds something.
            elif src.data is not None:
                key = judged.key(src.path, src.blob, "non-tier", 0) if judged is not None and src.blob else None
                found = judged.get(key) if key else None
                if found is None:
                    found = _non_tier_findings(config, src.path, src.data)
                    if key:
                        judged.put(key, found)
                if found:
                    reports.append(FileReport(src.path, None, None, found))  # type: ignore[arg-type]
            continue
        tier = match[0]
        if src.problem is not None or src.data is None:
            rep = FileReport(src.path, tier, None, [src.problem] if src.problem else [])
        else:
            rep = check_file(src.path, src.data, tier, config, cache, src.blob, judged, src.base)
        reports.append(rep)
    cache.save()
    if judged is not None:
        judged.save()
    return reports


def _non_tier_findings(config: Config, rel: str, data: bytes) -> list[Finding]:
    """Not a tier file, but one of tiergit's logs (one JSON object a line), under the store root
    or a legacy file (the secret check): reported, and counted, only when it finds something."""
    owned = jsonlog.is_owned(config, rel)
    found = jsonlog.findings(rel, data) if owned else []
    if owned or secretscope.in_scope(config, rel):
        found += secretscope.findings(rel, data)
    return found


def findings_of(reports: list[FileReport]) -> list[Finding]:
    return [f for r in reports for f in r.findings]


def write_step_summary(markdown: str) -> None:
    """Append to $GITHUB_STEP_SUMMARY when running in GitHub Actions."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(markdown.rstrip("\n") + "\n")
    except OSError:
        pass


def sources_for(store, staged: bool, paths: Sequence[str]) -> Iterable[CheckSource]:
    """What `check` reads: the staged blobs, the named paths that are memory files, or every
    memory file in the work tree. A named path that does not exist is an error (a typo would
    otherwise pass as "0 files checked")."""
    if staged:
        return staged_sources(store.repo, store.config)
    if not paths:
        return worktree_sources(store)
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise TiergitError(f"{missing[0]}: no such file",
                           "check the path; `tiergit check` without paths checks every memory file")
    rels = [store.rel(p) for p in paths]
    return worktree_sources(store, [r for r in rels if store.config.tier_for(r)])
