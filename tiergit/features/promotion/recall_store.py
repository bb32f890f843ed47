"""OpenClaw's own recall signals merged into the promotion's recall statistics, so an OpenClaw candidate
recalled by the agent does not read "recalls 0": `memory/.dreams/short-term-recall.json` (older OpenClaw)
and the short-term recall rows of OpenClaw's state database for this workspace (OpenClaw 2026.9,
tiergit/shell/openclaw_state.py), parsed by tiergit/core/recallstore.py. Read only in an OpenClaw
workspace (MEMORY.md is a tier); never written."""
from __future__ import annotations

from tiergit.core import rawtext, recallstore
from tiergit.core.candidate import Candidate
from tiergit.errors import TiergitError
from tiergit.features.promotion import openclaw_format
from tiergit.features.promotion.scoring import RecallStats


def read(store) -> tuple[dict[str, list[recallstore.StoreEntry]], str | None]:
    """The recall entries by path (empty when there are none or this is not an OpenClaw workspace), and
    a note naming what could not be read."""
    if not openclaw_format.dreams_paths(store.config):
        return {}, None
    from tiergit.shell import openclaw_state

    values, db_note = openclaw_state.recall_values(store.repo)
    in_db = recallstore.by_path_of((v.get("key", ""), v) for v in values)
    in_file, file_note = _file_entries(store)
    notes = "; ".join(n for n in (file_note, db_note) if n)
    return recallstore.merged(in_file, _snapshot(store), in_db), notes or None


def _snapshot(store) -> dict[str, list[recallstore.StoreEntry]]:
    from tiergit.shell import logs

    return recallstore.from_snapshot(logs.read(store, logs.OPENCLAW_RECALLS))


def sync(store) -> tuple[int, str, str | None]:
    """Copy OpenClaw's recall entries for this workspace that grew since the last copy into
    `logs/openclaw-recalls.jsonl` (committed, merge=union), so the nightly promotion on a runner without
    OpenClaw's state database counts them too. (entries copied, the log's repo-relative path, a note
    when the database was not read)."""
    from tiergit.shell import logs, openclaw_state

    where = logs.log_path(store, logs.OPENCLAW_RECALLS).relative_to(store.repo).as_posix()
    if not openclaw_format.dreams_paths(store.config):
        return 0, where, None
    values, note = openclaw_state.recall_values(store.repo)
    events = recallstore.snapshot_events(values, _snapshot(store)) if values else []
    logs.append(store, logs.OPENCLAW_RECALLS, events)
    return len(events), where, note


def _file_entries(store) -> tuple[dict[str, list[recallstore.StoreEntry]], str | None]:
    if not (store.repo / recallstore.PATH).is_file():
        return {}, None
    try:
        data = store.read_bytes(recallstore.PATH)
        text = rawtext.decode(data, recallstore.PATH, max(store.config.limits["max_file_bytes"], 64 << 20))
    except (TiergitError, OSError) as e:
        return {}, f"{recallstore.PATH}: not read ({e}); OpenClaw's recalls are not counted"
    entries, problem = recallstore.parse(text)
    return entries, (f"{recallstore.PATH}: {problem}; OpenClaw's recalls are not counted" if problem else None)


def origins(store, candidates: list[Candidate]) -> dict[str, tuple[str, int, int]]:
    """Where each item `import openclaw` staged from a daily note lives in that note: candidate id ->
    (note path, first line, last line), found by the item's id in the note its `## <note>` heading in
    the staging file names. OpenClaw's memory_search recalls the note's lines, never the staging file's:
    without this a staged item reads "recalls 0" whatever the agent searched. A note that changed since
    (the id no longer in it) gives no span. Cost: one parse per cited note, only in an OpenClaw workspace
    with recall entries."""
    from tiergit.core import parse

    staging = set(_staging_files(store))
    wanted = [c for c in candidates if c.staged and c.source in staging and not c.evidence]
    if not wanted:
        return {}
    headings: dict[str, list[str]] = {}
    notes: dict[str, dict[str, tuple[int, int]]] = {}
    out = {}
    for c in wanted:
        if c.source not in headings:
            headings[c.source] = _source_headings(store, c.source)
        lines = headings[c.source]
        note = lines[c.line - 1] if 0 < c.line <= len(lines) else None
        if not note:
            continue
        if note not in notes:
            notes[note] = {}
            if (store.repo / note).is_file():
                try:
                    doc = parse.parse(_text(store, note), note, store.config.labels)
                except (TiergitError, OSError):
                    doc = None
                for sec in doc.sections if doc else ():
                    for item in sec.items:
                        notes[note].setdefault(item.id, (item.line, item.end_line))
        span = notes[note].get(c.id)
        if span:
            out[c.id] = (note, *span)
    return out


def _staging_files(store) -> list[str]:
    from tiergit.features.promotion.candidates import staging_paths

    dreams = set(openclaw_format.dreams_paths(store.config))
    return [rel for rel in staging_paths(store) if rel not in dreams]


def _text(store, rel: str) -> str:
    return rawtext.decode(store.read_bytes(rel), rel, store.config.limits["max_file_bytes"])


def _source_headings(store, rel: str) -> list[str | None]:
    """Per line of a staging file, the `## <source file>` heading above it (None before the first)."""
    out: list[str | None] = []
    current = None
    try:
        text = _text(store, rel)
    except (TiergitError, OSError):
        return out
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
        out.append(current)
    return out


def merge(stats: dict[str, RecallStats], candidates: list[Candidate],
          entries: dict[str, list[recallstore.StoreEntry]],
          origin: dict[str, tuple[str, int, int]] | None = None) -> int:
    """Add each candidate's overlapping store entries to its recall statistics (its own lines, its
    Dreaming evidence, and for an item staged from a daily note its lines there: `origins`); returns how
    many candidates gained recalls."""
    if not entries:
        return 0
    moved = 0
    origin = origin or {}
    for c in candidates:
        end = c.line + c.raw.rstrip("\n").count("\n")
        where = recallstore.spans(c.source, c.line, end, c.evidence)
        if c.id in origin:
            where.append(origin[c.id])
        hits = recallstore.overlapping(entries, where)
        if not hits:
            continue
        st = stats.setdefault(c.id, RecallStats())
        for e in hits:
            st.count += e.count
            st.score_sum += min(e.total_score, float(e.count))   # each recall's score is in [0, 1]
            st.queries |= e.queries
            st.days |= e.days
        moved += 1
    return moved
