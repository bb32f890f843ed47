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


def merge(stats: dict[str, RecallStats], candidates: list[Candidate],
          entries: dict[str, list[recallstore.StoreEntry]]) -> int:
    """Add each candidate's overlapping store entries to its recall statistics; returns how many
    candidates gained recalls."""
    if not entries:
        return 0
    moved = 0
    for c in candidates:
        end = c.line + c.raw.rstrip("\n").count("\n")
        hits = recallstore.overlapping(entries, recallstore.spans(c.source, c.line, end, c.evidence))
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
