"""Session lifecycle: `start` writes the hot file from its template; `end` compacts it into
one new dated entry of the next tier (cold) and resets it.

`plan_start` / `plan_end` read files and return a Plan plus a report; they write nothing.
`end` and `start` are the shell: they take the per-hot-file lock, plan and apply.
The cold entry is written before hot is reset, and carries the session id, so a rerun
after a crash between the two writes resets hot without writing the entry twice.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

import yaml

from tiergit.core import hotfile, parse, rawtext
from tiergit.core import secrets as secrets_mod
from tiergit.core.config import CompactSettings, Config, Tier
from tiergit.core.session_report import EndReport
from tiergit.errors import TiergitError
from tiergit.features import compact
from tiergit.features.budget import judge, measure
from tiergit.features.plan import Plan
from tiergit.shell import clock, resources, tokens
from tiergit.shell.fsutil import store_lock
from tiergit.shell.lockwait import LockBusy
from tiergit.shell.summarizer import run_summarizer


@dataclass
class SessionPlan:
    plan: Plan
    report: EndReport | dict = field(default_factory=dict)   # EndReport for end, a dict for start


def new_session_id(taken: set[str] | frozenset[str] = frozenset()) -> str:
    """`s-` and nine random digits (three tokens); never one that `taken` (the markers already
    in cold) holds, since a marker in cold means "this session's entry is written"."""
    while True:
        session = f"s-{secrets.randbelow(10 ** 9):09d}"
        if session not in taken:
            return session


def resolve(cfg: Config, agent: str | None) -> hotfile.Paths:
    """The hot tier (named `hot`, else the first with `lifetime: session`) and the tier it compacts into."""
    hot = cfg.tiers.get("hot") or next((t for t in cfg.tiers.values() if t.lifetime == "session"), None)
    if hot is None:
        raise TiergitError(f"{cfg.path.name}: no hot tier (a tier named `hot` or with `lifetime: session`)",
                           "add one, e.g. tiers: {hot: {path: 'hot/{agent}.md', next: cold}}")
    if not hot.next:
        raise TiergitError(f"{cfg.path.name}: tiers.{hot.name}.next is not set: session end has nowhere to write",
                           "set it to the tier sessions compact into, e.g. next: cold")
    target = cfg.tiers[hot.next]
    if target.reviewed:
        raise TiergitError(f"{cfg.path.name}: tiers.{hot.name}.next is {target.name!r}, a reviewed tier",
                           "sessions compact into an unreviewed tier; reviewed tiers change only through promote")
    if agent is None:
        if "{agent}" in hot.path or "{agent}" in target.path:
            raise TiergitError(f"the {hot.name} tier path {hot.path!r} has an {{agent}} placeholder: --agent is required",
                               "example: tiergit session start --agent picard")
        agent = "main"
    hot_rel = cfg.tier_file(hot.name, agent=agent).relative_to(cfg.repo_root).as_posix()
    cold_rel = cfg.tier_file(target.name, agent=agent).relative_to(cfg.repo_root).as_posix()
    return hotfile.Paths(hot, target, hot_rel, cold_rel, agent)


def _read(cfg: Config, rel: str) -> str | None:
    path = cfg.repo_root / rel
    if not path.exists():
        return None
    if path.is_symlink() or not path.is_file():
        raise TiergitError(f"{rel}: not a regular file", "replace it with a plain markdown file")
    return rawtext.decode(path.read_bytes(), rel, cfg.limits["max_file_bytes"])


def template_text(cfg: Config, name: str) -> str:
    """A store template (`<root>/templates/NAME`) overrides the packaged one."""
    override = cfg.store_dir / "templates" / name
    if override.is_file():
        return rawtext.decode(override.read_bytes(), str(override.relative_to(cfg.repo_root)))
    return resources.read("store", name)


def template_lines(cfg: Config, agent: str) -> frozenset[str]:
    """The hot template's headings, as `session start` writes them: structure, not session text."""
    body = template_text(cfg, "hot.md").replace("{agent}", agent)
    return frozenset(ln.strip() for ln in body.splitlines() if ln.lstrip().startswith("#") and "{" not in ln)


def render_hot(cfg: Config, agent: str, task: str | None, carried: list[str], session: str | None,
               started: datetime | None, extra_meta: dict | None = None) -> str:
    body = template_text(cfg, "hot.md")
    open_block = "\n".join(carried) if carried else hotfile.NO_OPEN_ITEMS
    if carried and "{open_items}" not in body:
        body = body.rstrip("\n") + "\n\n## Blockers\n{open_items}\n"
    date = (started or clock.now()).date().isoformat()
    for key, value in (("{agent}", agent), ("{task}", task or hotfile.NO_TASK), ("{date}", date),
                       ("{open_items}", open_block)):
        body = body.replace(key, value)
    meta: dict = {"agent": agent}
    if session is not None:
        meta["session"] = session
    if started is not None:
        meta["task"] = task or ""
        meta["started"] = hotfile.iso(started)
    meta["body"] = hotfile.body_hash(body)
    front = dict(extra_meta or {})
    front["tiergit"] = meta
    fm = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{fm}---\n{body}"


def hot_health(cfg: Config, tier: Tier, rel: str, text: str) -> dict:
    data = text.encode("utf-8")
    cache = tokens.TokenCache(None, cfg.tokenizer)
    fh = judge(rel, tier, measure(text, data, tier, cache))
    return {"health": fh.health, "bytes": fh.measure.bytes, "tokens": fh.measure.tokens,
            "tokens_exact": fh.measure.tokens_exact, "percent": round(fh.percent, 1)}


def plan_end(cfg: Config, agent: str | None, notes: list[tuple[str, str]] | None = None,
             now: datetime | None = None, next_session: str | None = None,
             summarizer: bool = True, require_hot: bool = True) -> SessionPlan:
    """Compact the hot file (and any notes) into one new dated entry of the next tier; reset hot.
    Reads the hot and cold files; what they say is decided in core/hotfile.py."""
    paths = resolve(cfg, agent)
    now = now or clock.now()
    settings = cfg.compact
    hot_text = _read(cfg, paths.hot)
    hotfile.check_hot(paths, hot_text, bool(notes), require_hot)
    hot = hotfile.load_hot(cfg, paths.hot, hot_text) if hot_text is not None else None
    ending = hotfile.ending(cfg, paths, hot, _read(cfg, paths.cold), notes or [])
    plan = Plan(f"tiergit session end{paths.flag}")
    report = hotfile.end_report(paths, ending)
    if ending.written:
        plan.notes.append(f"the entry for session {ending.session} is already in {paths.cold} "
                          "(an earlier run stopped before resetting hot): not written again")
    else:
        _plan_entry(cfg, plan, report, paths, ending, now, settings if summarizer else settings.replace(command=None))
    carried, left = hotfile.fit_carried(hotfile.open_items(ending.doc, cfg.labels), paths.hot_tier)
    if left:
        plan.notes.append(f"{left} older open item(s) not carried into hot (they stay in {paths.cold})")
    # No session id in the reset file: two branches that each end a session then leave the same
    # hot file, so merging them is clean (a fresh random id on each side was a merge conflict).
    reset = render_hot(cfg, paths.agent, None, carried, next_session, None, hot.extra_meta if hot else None)
    plan.add(paths.hot, reset, hot_text, reason="reset for the next session"
             + (f", {len(carried)} open item(s) carried" if carried else ""))
    report.carried = len(carried)
    report.hot_after = hot_health(cfg, paths.hot_tier, paths.hot, reset)
    return SessionPlan(plan, report)


def _plan_entry(cfg: Config, plan: Plan, report: EndReport, paths: hotfile.Paths, ending: hotfile.Ending,
                now: datetime, settings: CompactSettings) -> None:
    """The session's cold entry: the notes compacted (or summarized by the user's command, every
    kept item re-added), credentials redacted, appended to cold; the figures into `report`."""
    heading = hotfile.entry_heading(ending, now)
    result = compact.compact_doc(ending.doc, ending.cold_ids, settings.ratio, cfg.labels, ending.skip_lines,
                                 ending.cold_text or "", ending.task,
                                 overhead=tokens.count_text(heading, cfg.tokenizer).tokens,
                                 encoding=cfg.tokenizer, boilerplate=template_lines(cfg, paths.agent))
    body = result.body()
    if settings.command and (result.kept or result.condensed):
        run = run_summarizer(settings.command, ending.notes_text, settings.timeout,
                             env={"TIERGIT_AGENT": paths.agent, "TIERGIT_TASK": ending.task})
        report.summarizer = run.note
        plan.notes.append(run.note)
        if run.text is not None:
            body, readded = compact.ensure_kept(run.text, result.kept)
            report.readded = readded
            if readded:
                plan.notes.append(f"re-added {len(readded)} item(s) the summarizer left out, verbatim")
    report.kept, report.condensed, report.condensed_lines = len(result.kept), result.condensed_items, len(result.condensed)
    report.dropped, report.duplicates = result.dropped, result.duplicates
    tin = tokens.count_text(ending.notes_text, cfg.tokenizer)
    report.tokens_in = tin.tokens
    report.tokens_verbatim = tokens.count_text("\n".join(result.kept), cfg.tokenizer).tokens
    body, leaked = secrets_mod.redact(body)
    if leaked:
        plan.notes.append(f"redacted {len(leaked)} credential(s) ({leaked[0].kind}) from the notes: "
                          "rotate them if they were real")
    if not body.strip():
        plan.notes.append("nothing new to keep: no entry written")
        return
    entry = f"{heading}{body.strip()}\n"
    kept_tokens = tokens.count_text(entry, cfg.tokenizer).tokens
    report.entry_written, report.tokens_kept, report.entry = True, kept_tokens, entry
    report.ratio = round(kept_tokens / tin.tokens, 4) if tin.tokens else 0.0
    _add_cold(cfg, plan, paths, ending.cold_text, hotfile.append_entry(ending.cold_text, entry, paths),
              ending.task, ending.session)


def _add_cold(cfg: Config, plan: Plan, paths, old: str | None, new: str, task: str, session: str) -> None:
    """The new cold text - trimmed under the warn level when the entry pushed it over max (its
    oldest non-pinned entries archived in the same plan, never the new one), and said so."""
    from tiergit.features.retention import plan_fit_file
    from tiergit.shell.store import Store

    tier = paths.cold_tier
    if not tier.budget or tier.reviewed or "{date}" in tier.path:
        plan.add(paths.cold, new, old, reason=f"new entry: {task}")
        return
    moved = plan_fit_file(plan, Store(cfg.repo_root, cfg), paths.cold, old, new, tier, keep=hotfile.marker(session))
    plan.changes[-1].reason = f"new entry: {task}" + (f"; {moved} oldest archived to stay in budget" if moved else "")
    if moved:
        plan.notes.append(f"{paths.cold} would be over its budget: archived its {moved} oldest "
                          f"{'entry' if moved == 1 else 'entries'} (see the archive changes above)")


def plan_start(cfg: Config, agent: str | None, task: str | None = None, force: bool = False,
               now: datetime | None = None, session: str | None = None) -> SessionPlan:
    """Write the hot file from its template, carrying over the previous session's open items."""
    paths = resolve(cfg, agent)
    now = now or clock.now()
    task = " ".join((task or "").split()) or None
    hot_text = _read(cfg, paths.hot)
    hot = hotfile.load_hot(cfg, paths.hot, hot_text) if hot_text and hot_text.strip() else None
    plan = Plan(f"tiergit session start{paths.flag}")
    report: dict = {"agent": paths.agent, "hot": paths.hot, "task": task, "ended_previous": None}
    carried_all: list[str] = []
    if hot is not None and hot.unfinished:
        if not force:
            what = f" (task {hot.meta['task']!r}, started {hot.meta.get('started')})" if hot.meta.get("task") else ""
            raise TiergitError(f"{paths.hot}: holds an unfinished session{what}: nothing changed",
                               f"end it with `tiergit session end{paths.flag}`, "
                               "or add --force to end it now and start the new one")
        ended = plan_end(cfg, paths.agent, now=now, summarizer=True)
        for change in ended.plan.changes:
            if change.path != paths.hot:
                plan.changes.append(change)
        plan.notes.extend(ended.plan.notes)
        report["ended_previous"] = {k: v for k, v in ended.report.as_dict().items() if k != "entry"}
        carried_all = hotfile.open_items(hotfile.load_hot(cfg, paths.hot, ended.plan.changes[-1].new or "").doc, cfg.labels)
    elif hot is not None:
        carried_all = hotfile.open_items(hot.doc, cfg.labels)
    else:
        cold_text = _read(cfg, paths.cold)
        if cold_text:
            cold_doc = parse.parse(cold_text, paths.cold, cfg.labels)
            if cold_doc.entries:
                last = cold_doc.entries[-1]
                carried_all = hotfile.open_items(parse.MemoryDoc(paths.cold, "", {}, [last], cold_doc.entry_level),
                                         cfg.labels)
    carried, left = hotfile.fit_carried(carried_all, paths.hot_tier)
    if left:
        plan.notes.append(f"{left} older open item(s) not carried into hot (they stay in {paths.cold})")
    session = session or new_session_id(set(hotfile.MARKER_RE.findall(_read(cfg, paths.cold) or "")))
    text = render_hot(cfg, paths.agent, task, carried, session, now, hot.extra_meta if hot else None)
    plan.add(paths.hot, text, hot_text, reason="new session" + (f": {task}" if task else ""))
    report.update(session=session, carried=len(carried),
                  hot_after=hot_health(cfg, paths.hot_tier, paths.hot, text))
    return SessionPlan(plan, report)


def end(cfg: Config, agent: str | None, notes: list[tuple[str, str]] | None = None,
        now: datetime | None = None) -> SessionPlan:
    """Lock, plan, apply (cold entry first, then the hot reset). A lock that stays busy for
    the whole wait leaves hot untouched and says how to retry: the session is not lost."""
    paths = resolve(cfg, agent)   # a bad agent name is refused before the lock is taken
    try:
        with store_lock(cfg.repo_root):
            result = plan_end(cfg, agent, notes, now)
            result.plan.apply(cfg.repo_root)
    except LockBusy as exc:
        raise LockBusy(f"{exc.message}: {paths.hot} is untouched, the session is not ended yet",
                       f"rerun `tiergit session end{paths.flag}` when the other command has finished "
                       f"(hot still holds every note); {exc.hint.split(', or ', 1)[-1]}") from None
    return result


def start(cfg: Config, agent: str | None, task: str | None = None, force: bool = False,
          now: datetime | None = None) -> SessionPlan:
    resolve(cfg, agent)   # a bad agent name is refused before the lock is taken
    with store_lock(cfg.repo_root):
        result = plan_start(cfg, agent, task, force, now)
        result.plan.apply(cfg.repo_root)
    return result
