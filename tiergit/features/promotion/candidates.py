"""Promotion candidates: durable or recalled items in tiers whose `next` tier is reviewed,
plus items staged by agents (`propose`), dreaming (`DREAMS.md`) or `import squad`.

Reads files; everything it returns is plain data for the pure gate and plan.
"""
from __future__ import annotations

import hashlib
import os
from datetime import date, datetime, timezone
from pathlib import Path

from tiergit.core import candidate, dreams, parse, rawtext
from tiergit.core.candidate import Candidate, Corpus
from tiergit.core.patterns import splice_managed
from tiergit.errors import TiergitError
from tiergit.features.promotion import openclaw_format
from tiergit.shell import progress
from tiergit.shell.forked import run_forked
from tiergit.shell.parse_cache import ParseCache

APART_MIN = 200   # files: past this many, a run that finds most of them unparsed parses them in children
APART_CHILDREN = 4   # at most: each holds its share's parse at once (the nightly runner has 2 cores)


def staging_paths(store) -> list[str]:
    """Repo-relative staging files: config.staging if set, else <root>/staging/*.md; plus
    OpenClaw's DREAMS.md when MEMORY.md is a tier."""
    cfg = store.config
    # OpenClaw's own Dreaming candidates (root DREAMS.md) are read as staging, never written.
    dreams = [d for d in openclaw_format.dreams_paths(cfg) if (store.repo / d).is_file()]
    if cfg.staging:
        rel = cfg.repo_path(cfg.staging)
        return ([rel] if (store.repo / rel).is_file() else []) + [d for d in dreams if d != rel]
    folder = store.root / "staging"
    if not folder.is_dir():
        return dreams
    return sorted(p.relative_to(store.repo).as_posix() for p in folder.glob("*.md") if p.is_file()) + dreams


def default_staging(store) -> str:
    cfg = store.config
    return cfg.repo_path(cfg.staging) if cfg.staging else cfg.repo_path("staging/proposed.md")


def strip_managed(text: str) -> str:
    """The staging text without tiergit's own candidate listing (it is output, not input)."""
    return splice_managed(text, None)


def _read(store, rel: str) -> str:
    data = store.read_bytes(rel)
    return rawtext.decode(data, rel, store.config.limits["max_file_bytes"])


def _file_day(store, rel: str) -> date:
    return datetime.fromtimestamp((store.repo / rel).stat().st_mtime, tz=timezone.utc).date()


def gather(store, recalled: set[str], blame: bool = True, searched: dict | None = None) -> Corpus:
    """Read every memory file once: candidates, the wiki index, and mentions. Undated items
    take their date from git blame, once per file version (`blame_cache`). `searched`: the line spans
    OpenClaw's memory_search recalled, by path (`recall_store.read`)."""
    cache = ParseCache.for_store(store)
    from tiergit.features.history import pathspecs
    from tiergit.shell.blame_cache import BlameCache

    blames = BlameCache.for_repo(store.repo, pathspecs(store.config))
    try:
        return _gather(store, recalled, blame, cache, blames, searched or {})
    finally:
        blames.close()


def _gather(store, recalled: set[str], blame: bool, cache: ParseCache, blames, searched: dict) -> Corpus:
    # The files stream through `collect` one at a time: a run holds one parsed document, not every
    # file's (at 10k real-sized files they were most of a plan's ~1.6 GB peak).
    recalled_files: list[candidate.ParsedFile] = []   # the few `_searched` reads again
    sources = _sources(store)
    cache = _parse_apart(store, cache, sources)

    def files():
        for f in _parsed_files(store, cache, sources):
            if searched.get(f.rel):
                recalled_files.append(f)
            yield f

    min_confidence = store.config.gate.min_confidence
    corpus = candidate.collect(files(), store.config.tiers, recalled, min_confidence)
    cache.save()
    # a recalled daily line `import` already staged is that staged candidate, counted once
    known = {c.id for c in corpus.candidates}
    corpus.candidates += [c for c in _searched(recalled_files, store.config.tiers, searched, min_confidence)
                          if c.id not in known]
    _dreaming_only(store, corpus)
    _date_undated(store, corpus.candidates, blames if blame else None)
    return corpus


def _searched(files: list, tiers: dict, searched: dict, min_confidence: float) -> list[Candidate]:
    """Items of a tier that promotes nowhere (OpenClaw's daily notes) whose lines OpenClaw's memory_search
    recalled: candidates for the reviewed tier, as OpenClaw's own Deep phase promotes recalled daily
    chunks. Without this a daily note's line reached the gate only when `import` staged it (a durable kind
    by its wording) or Dreaming named it: on four of the six corpus workspaces no line the searches
    recalled was a candidate. Staged and reviewed files are read as before."""
    targets = candidate.reviewed_targets(tiers)
    target = next(iter(targets.values()), None)
    out: list[Candidate] = []
    for f in files:
        spans = searched.get(f.rel)
        if not spans or target is None or f.staged or f.tier is None or f.tier.reviewed or f.tier.name in targets:
            continue
        pairs = iter(f.keys)
        for sec in f.doc.sections:
            for item in sec.items:
                text, key = next(pairs)
                if any(start <= item.end_line and item.line <= end for start, end in spans):
                    day = item.date or sec.date or f.file_date
                    out.append(candidate.one(f, sec, item, text, key, day, target, min_confidence))
    return out


def _dreaming_only(store, corpus: Corpus) -> None:
    """In OpenClaw's DREAMS.md only Dreaming's candidate structures are candidates, each dated from
    its Dreaming entry (the diary's date line or the backfill entry's day), not from git blame."""
    dreams_files = set(openclaw_format.dreams_paths(store.config))
    if not dreams_files or not any(c.source in dreams_files for c in corpus.candidates):
        return
    days: dict[str, list] = {}
    kept = []
    for c in corpus.candidates:
        if c.source not in dreams_files:
            kept.append(c)
            continue
        meta = dreams.read(c.raw)   # an evidence ref alone is the diary citing a note, not a candidate
        if not openclaw_format.is_dreaming_candidate(c.raw, c.dreamed, meta.confidence is not None
                                                     or meta.status is not None or meta.tag is not None):
            continue
        if c.source not in days:
            days[c.source] = openclaw_format.entry_days(_read(store, c.source))
        line_days = days[c.source]
        c.age_day = c.age_day or (line_days[c.line - 1] if 0 < c.line <= len(line_days) else None)
        kept.append(c)
    corpus.candidates[:] = kept


def _sources(store) -> tuple[list[str], set[str], dict[str, str]]:
    """(every memory, staging and archive file, the staged ones, archive file -> its origin)."""
    staged = set(staging_paths(store))
    archived = archived_files(store)
    return sorted(set(store.memory_files()) | staged | set(archived)), staged, archived


def _parse_apart(store, cache: ParseCache, sources) -> ParseCache:
    """The cache to read from: when most files are not in it (a first run, a new tiergit), they are
    parsed first in forked children that fill it (shell/forked.py says why), one share each, one
    child a core (at most APART_CHILDREN), then read back as a warm run reads them; where there is
    no fork, or a child fails, the run parses what is missing itself."""
    rels, staged, archived = sources
    if cache.path is None or len(rels) < APART_MIN or 2 * len(cache.stored) >= len(rels):
        return cache   # no cache to fill (no state dir: the child's parse would be lost), or a warm one
    children = max(1, min(os.cpu_count() or 1, APART_CHILDREN))

    def fill(n: int):
        def work() -> None:
            child = ParseCache.for_store(store)
            share = (rels[n::children], staged, archived)   # interleaved: the shares take alike
            for _ in _parsed_files(store, child, share, "parsing memory files", show=n == 0):
                pass
            child.save(prune=False)
        return work

    run_forked(*(fill(n) for n in range(children)))
    cache.close()   # what the children stored is read back; what a failed one left is parsed here
    return ParseCache.for_store(store)


def _parsed_files(store, cache: ParseCache, sources, label: str = "reading memory files", show: bool = True):
    """Every memory, staging and archive file (`sources`), read and parsed (unreadable ones skipped)."""
    cfg = store.config
    rels, staged, archived = sources
    # the parse is a first run's cost (a warm one reads the cache): a bar once it takes a second
    for rel in progress.iterate(rels, label, show, minimum=len(rels) + 1):
        match = cfg.tier_for(archived.get(rel, rel))
        tier = match[0] if match else None
        try:
            text = _read(store, rel)
            if rel in staged:
                text = strip_managed(text)
            doc = cache.parse(text, rel)
        except TiergitError:
            continue  # `check` reports unreadable files; promotion skips them
        file_date = None
        if tier is not None and "{date}" in tier.path and match:
            file_date = parse.heading_date(match[1].get("date", ""))
        yield candidate.ParsedFile(rel, tier, file_date, doc, cache.item_keys(doc), rel in staged)


def _date_undated(store, candidates: list[Candidate], blames) -> None:
    """An undated candidate takes the day git blame gives its line (once per file: the candidates come
    file by file, and one file's line dates are held at a time; every file's held 30 MB at 10k), else,
    unless staged, its file's modification day."""
    held, dates = None, {}
    for c in candidates:
        if c.age_day is not None:
            continue
        if blames is not None:
            if c.source != held:
                held, dates = c.source, _working_dates(store, c.source, blames)
            c.age_day = dates.get(c.line)
        if c.age_day is None and not c.staged:
            c.age_day = _file_day(store, c.source)


def _working_dates(store, rel: str, blames) -> dict[int, date]:
    """Working-tree line -> the author day of the commit that introduced it. Blame dates HEAD's lines;
    when the file has uncommitted edits, each working line takes the date of the same text in HEAD,
    and a line HEAD does not have is not dated (uncommitted: never "today")."""
    head = blames.dates(rel)
    blob = blames.head_blob(rel)
    if not head or blob is None:
        return head
    data = store.read_bytes(rel)
    if hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob:
        return head
    from tiergit.shell import git

    committed = git.read_blobs(store.repo, [blob]).get(blob, b"").decode("utf-8", "replace").splitlines()
    by_text: dict[str, list[date]] = {}
    for n, line in enumerate(committed, 1):
        if n in head:
            by_text.setdefault(line, []).append(head[n])
    out: dict[int, date] = {}
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if by_text.get(line):
            out[n] = by_text[line].pop(0)
    return out


def archived_files(store) -> dict[str, str]:
    """Archive files -> the tier path they came from (`archive/2026-04/cold/picard.md` ->
    `<root>/cold/picard.md`). Cold entries reach the archive at their TTL, often the age at
    which they become promotable, so archived items stay candidates until the archive
    month leaves the tree."""
    cfg = store.config
    base = store.repo / cfg.repo_path(cfg.archive)
    if not base.is_dir():
        return {}
    out = {}
    for path in sorted(base.glob("[0-9][0-9][0-9][0-9]-[0-9][0-9]/**/*.md")):
        inner = path.relative_to(base).as_posix().split("/", 1)[1]
        origin = cfg.repo_path(inner)
        match = cfg.tier_for(origin)
        # Only sources of promotion: what `audit` archived from a reviewed tier is dead context.
        if path.is_file() and match is not None and not match[0].reviewed:
            out[path.relative_to(store.repo).as_posix()] = origin
    return out


def target_path(store, cand: Candidate, _cache: dict | None = None) -> str:
    """Repo-relative file a candidate is promoted into."""
    tier = store.config.tiers[cand.target_tier]
    values = {"topic": cand.topic} if "{topic}" in tier.path else {}
    memo = (cand.target_tier, cand.topic if values else "")
    if _cache is not None and memo in _cache:
        return _cache[memo]
    path: Path = store.config.tier_file(cand.target_tier, **values)
    rel = path.relative_to(store.repo).as_posix()
    if _cache is not None:
        _cache[memo] = rel
    return rel
