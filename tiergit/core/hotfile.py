"""The hot file and the cold entry a session end writes, as text: session ids and markers,
the task line, the open items carried over, the entry's title and heading. Pure: parsed
documents and text in (features/session.py reads the files and applies the plan).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from tiergit.core import parse, sessiontext
from tiergit.core.config import Config, Tier
from tiergit.core.session_report import EndReport
from tiergit.core.sha1 import sha1
from tiergit.errors import TiergitError

NO_TASK = "<!-- one line: what this session is for -->"
NO_OPEN_ITEMS = "<!-- one per line: `- [blocker] …` or `- [ ] …`; carried over to the next session -->"
# An entry's session marker: `<!-- s-123456789 -->` (7 tokens); entries written before it
# was shortened carry `<!-- tiergit:session s-… -->` and are recognized too.
MARKER_RE = re.compile(r"<!--\s*(?:tiergit:session\s+)?(s-[0-9a-z]{4,32})\s*-->")
SESSION_ID_RE = re.compile(r"^s-[0-9a-z]{4,32}$")
MAX_TASK_CHARS = 100


@dataclass
class Paths:
    hot_tier: Tier
    cold_tier: Tier
    hot: str       # repo-relative
    cold: str
    agent: str

    @property
    def flag(self) -> str:
        """` --agent A` for hints, or nothing when the tier paths have no {agent} (openclaw)."""
        per_agent = "{agent}" in self.hot_tier.path or "{agent}" in self.cold_tier.path
        return f" --agent {self.agent}" if per_agent else ""


def content_session_id(agent: str, notes_text: str) -> str:
    """The id of a session that `session start` did not name: a hash of its notes, so a rerun
    after a crash between the cold write and the hot reset finds its marker and writes nothing twice."""
    digest = sha1(f"{agent}\0{notes_text}".encode("utf-8")).hexdigest()
    return f"s-{int(digest, 16) % 10 ** 9:09d}"


def marker(session: str) -> str:
    return f"<!-- {session} -->"


def iso(ts: datetime) -> str:
    return ts.isoformat().replace("+00:00", "Z")


def body_hash(body: str) -> str:
    return sha1(body.encode("utf-8")).hexdigest()[:12]


@dataclass
class Hot:
    text: str
    doc: parse.MemoryDoc
    meta: dict          # the `tiergit:` frontmatter mapping ({} when absent)
    extra_meta: dict    # the user's own frontmatter keys, kept on reset
    body: str

    @property
    def unfinished(self) -> bool:
        """Content beyond what tiergit last wrote: items the agent added during a session."""
        if self.meta.get("body") == body_hash(self.body):
            return False
        return bool(self.doc.items)


def load_hot(cfg: Config, rel: str, text: str) -> Hot:
    doc = parse.parse(text, rel, cfg.labels)
    meta = doc.metadata.get("tiergit") if isinstance(doc.metadata, dict) else None
    if meta is not None and not isinstance(meta, dict):
        raise TiergitError(f"{rel}:2: the `tiergit:` frontmatter key must be a mapping",
                           "restore it as written by `tiergit session start`, or delete the key")
    extra = {k: v for k, v in doc.metadata.items() if k != "tiergit"}
    body = text[len(doc.frontmatter_text):]
    return Hot(text, doc, dict(meta or {}), extra, body)


def open_items(doc: parse.MemoryDoc, labels: dict | None) -> list[str]:
    """Items to carry into the next session (as written to cold): blockers, `[todo]`s and
    unchecked `- [ ]` items. The task line itself (Current task section) is not carried."""
    out = []
    for section in doc.sections:
        key = sessiontext.section_key(section.heading)
        for item in section.items:
            if item.kind != "open":
                continue
            if key == "current task" and sessiontext.own_kind(item, labels) != "open":
                continue
            out.append(sessiontext.cold_form(item, section.heading, labels))
    return out


def fit_carried(items: list[str], tier: Tier) -> tuple[list[str], int]:
    """Open items to carry, deduplicated, newest kept when they would fill over half the hot budget."""
    seen, unique = set(), []
    for text in items:
        iid = parse.item_id(text)[0]
        if iid not in seen:
            seen.add(iid)
            unique.append(text)
    limit = tier.budget.get("bytes")
    if limit is None:
        return unique, 0
    kept: list[str] = []
    size = 0
    for text in reversed(unique):
        size += len(text.encode("utf-8")) + 1
        if size > limit.max / 2:
            break
        kept.append(text)
    kept.reverse()
    return kept, len(unique) - len(kept)


def task_item_of(doc: parse.MemoryDoc) -> parse.Item | None:
    """The first item under Current task, unless it is itself a todo or blocker."""
    for section in doc.sections:
        if sessiontext.section_key(section.heading) == "current task" and section.items:
            first = section.items[0]
            return first if sessiontext.own_kind(first, None) != "open" else None
    return None


def task_of(hot: Hot) -> tuple[str, parse.Item | None]:
    """The session's task: from frontmatter, else the first item under Current task."""
    task_item = task_item_of(hot.doc)
    task = str(hot.meta.get("task") or "").strip()
    if not task and task_item is not None:
        task = parse.clean_text(task_item.text)
    task = " ".join(sessiontext.DATE_SUFFIX.sub("", task).split()) or "session"
    if len(task) > MAX_TASK_CHARS:
        task = task[: MAX_TASK_CHARS - 1].rstrip() + "…"
    return task, task_item


def entry_title(task: str, now: datetime) -> str:
    """The task as the entry's title: a leading date that repeats the entry's own is left out."""
    day = now.date().isoformat()
    if task.startswith(day):
        rest = sessiontext.LEADING_DATE.sub("", task).strip()
        return rest or task
    return task


def cold_header(paths: Paths) -> str:
    who = f" · {paths.agent}" if "{agent}" in paths.cold_tier.path else ""
    return f"# {paths.cold_tier.name.capitalize()} memory{who}\n\n"


def append_entry(cold_text: str | None, entry: str, paths: Paths) -> str:
    base = cold_text if cold_text else cold_header(paths)
    base = base.rstrip("\n") + "\n\n"
    return base + entry


def notes_doc(cfg: Config, hot: Hot | None, notes: list[tuple[str, str]]) -> tuple[str, parse.MemoryDoc]:
    """The session's notes: the hot body followed by any --notes files (their frontmatter stripped)."""
    parts = [hot.body] if hot is not None else []
    for name, text in notes:
        _, _, body = parse.split_frontmatter(text, name)
        parts.append(body)
    joined = "\n\n".join(p.strip("\n") for p in parts if p.strip()) + "\n"
    # Every paragraph of the notes is the session's own text, a paragraph above any heading too.
    return joined, parse.parse(joined, "<session notes>", cfg.labels, notes=True)


def check_hot(paths: Paths, hot_text: str | None, has_notes: bool, require_hot: bool) -> None:
    """Refuse to end a session that is not there: no hot file (and no notes), or an empty one."""
    if hot_text is None and not has_notes and require_hot:
        raise TiergitError(f"{paths.hot}: no hot file: there is no session to end",
                           f"start one with `tiergit session start{paths.flag}`")
    if hot_text is not None and not hot_text.strip():
        raise TiergitError(f"{paths.hot}: the hot file is empty: nothing to compact, nothing changed",
                           f"restore it from git, or start afresh with `tiergit session start{paths.flag} --force`")


@dataclass
class Ending:
    """What a session end reads from the hot file, the notes and cold, decided once."""
    session: str                  # the hot file's session id, or one hashed from the notes
    written: bool                 # cold already holds this session's marker
    task: str                     # the entry's title
    skip_lines: frozenset[int]    # the task line in the notes (it is the title, not an item)
    notes_text: str
    doc: parse.MemoryDoc          # the notes, parsed
    cold_text: str | None
    cold_doc: parse.MemoryDoc | None

    @property
    def cold_ids(self) -> set[str]:
        return {i.id for i in self.cold_doc.items} if self.cold_doc else set()


def ending(cfg: Config, paths: Paths, hot: Hot | None, cold_text: str | None,
           notes: list[tuple[str, str]]) -> Ending:
    cold_doc = parse.parse(cold_text, paths.cold, cfg.labels) if cold_text else None
    session = str((hot.meta.get("session") if hot else None) or "")
    task, task_item = task_of(hot) if hot else ("session", None)   # the task line is the entry title
    notes_text, doc = notes_doc(cfg, hot, notes)
    if not SESSION_ID_RE.match(session):   # missing (a reset hot file) or hand-edited
        session = content_session_id(paths.agent, notes_text)
    in_notes = task_item_of(doc) if task_item is not None else None
    # Only the line that is the title is left out: an agent's own first note under Current task
    # (a root cause, a correction) is an item like any other.
    is_title = in_notes is not None and _is_task_line(in_notes, task)
    skip = frozenset({in_notes.line}) if is_title else frozenset()
    return Ending(session, session in set(MARKER_RE.findall(cold_text or "")), task, skip, notes_text, doc,
                  cold_text, cold_doc)


def _is_task_line(item: parse.Item, task: str) -> bool:
    text = " ".join(sessiontext.DATE_SUFFIX.sub("", parse.clean_text(item.text)).split())
    return text == task or (task.endswith("…") and text.startswith(task[:-1].rstrip()))


def end_report(paths: Paths, ending: Ending) -> EndReport:
    """The session-end report before the entry is planned (its figures filled in as it is)."""
    return EndReport(agent=paths.agent, session=ending.session, task=ending.task, hot=paths.hot,
                     cold=paths.cold, already_written=ending.written)


def entry_heading(ending: Ending, now: datetime) -> str:
    """The entry's heading (at cold's entry level, else ###: date and title) and session marker."""
    level = ending.cold_doc.entry_level if ending.cold_doc and ending.cold_doc.entry_level else 3
    return f"{'#' * level} {now.date().isoformat()} · {entry_title(ending.task, now)}\n{marker(ending.session)}\n\n"
