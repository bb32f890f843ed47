"""Retention: expired entries and daily notes into the archive, old archive out of the tree.

`plan_archive` is pure over the files it reads and returns a Plan; `fix_budgets`
(`check --fix`) archives the oldest entries of an over-budget file until it fits.
Removal from a tier always comes with the archive write in the same plan: nothing
is lost, and the user's commit makes the deletion recoverable (`tiergit restore`).
"""
from __future__ import annotations

from datetime import date, timedelta
from pathlib import PurePosixPath

from tiergit.core import parse, rawtext
from tiergit.core.cuts import Cut, chunk, expired_cuts, pinned_cuts, plural, remove_lines
from tiergit.core.fixhint import pinned_over_note
from tiergit.errors import TiergitError
from tiergit.features import archive_record, budget, retention_keep
from tiergit.features.plan import Plan
from tiergit.shell.parse_cache import ParseCache

DAILY_TTL_DAYS = 30


def archive_dir(store) -> str:
    return store.config.repo_path(store.config.archive).rstrip("/")


def archive_path(store, rel: str, day: date) -> str:
    """<root>/<archive>/YYYY-MM/<path of rel inside root> (or its name, outside root)."""
    root = PurePosixPath(store.config.root)
    p = PurePosixPath(rel)
    inner = p.relative_to(root) if root != PurePosixPath(".") and p.is_relative_to(root) else PurePosixPath(p.name)
    return f"{archive_dir(store)}/{day:%Y-%m}/{inner.as_posix()}"


def add_to_archive(plan: Plan, store, pending: dict[str, str], rel: str, text: str, cuts: list[Cut]) -> None:
    """Append each cut's text to its month's archive file (created with a header)."""
    lines = rawtext.split_lines(text)   # once: a prune may cut thousands of spans
    for cut in sorted(cuts, key=lambda c: (c.day, c.start)):
        dest = archive_path(store, rel, cut.day)
        if dest not in pending:
            path = store.repo / dest
            pending[dest] = path.read_text(encoding="utf-8") if path.is_file() else ""
        cur = pending[dest] or f"# Archive of {rel} ({cut.day:%Y-%m})\n"
        prefix = f"\n<!-- from {rel}" + (f" § {cut.heading}" if cut.heading else "") + f": {cut.reason} -->\n"
        pending[dest] = cur.rstrip("\n") + "\n" + prefix + chunk(lines, cut)


def flush_archive(plan: Plan, store, pending: dict[str, str], day: date | None = None) -> None:
    """Write the pending archive texts, and record them as tiergit's (the purge's list)."""
    for dest in sorted(pending):
        path = store.repo / dest
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        plan.add(dest, pending[dest], old, reason="archive")
    if pending:
        if day is None:
            from tiergit.shell import clock

            day = clock.today()
        archive_record.record(plan, store, list(pending), day)


def apply(store, plan: Plan) -> list[str]:
    """Apply a retention plan; archive folders a purge left empty go too. The paths written."""
    written = plan.apply(store.repo)
    gone = [c.path for c in plan.effective if c.new is None]
    archive_record.prune_empty_folders(store, gone)
    return written


def _read(store, rel: str) -> str:
    return rawtext.decode(store.read_bytes(rel), rel, store.config.limits["max_file_bytes"])


def plan_archive(store, today: date | None = None) -> Plan:
    """What `archive` moves and deletes as of `today` (default: tiergit's clock)."""
    if today is None:
        from tiergit.shell import clock

        today = clock.today()
    cfg = store.config
    plan = Plan("tiergit archive")
    pending: dict[str, str] = {}
    to_stage: list = []
    delete_after = archive_record.delete_after_days(cfg)
    # The parse is the preview's cost and most cold files did not change since the last run
    # (status, promote and archive share the cache); the plan only reads the parsed documents.
    parsed = ParseCache.for_store(store)
    for rel in store.memory_files():
        tier = cfg.tier_for(rel)[0]  # type: ignore[index]
        if tier.reviewed or tier.lifetime == "session" or tier.in_place:
            continue
        try:
            text = _read(store, rel)
        except TiergitError as exc:
            plan.notes.append(f"skipped {rel}: {exc.message}")
            continue
        if "{date}" in tier.path:
            day = parse.heading_date(PurePosixPath(rel).name)
            ttl = tier.ttl_days if tier.ttl_days is not None else DAILY_TTL_DAYS
            if day is not None and day < today - timedelta(days=ttl):
                dest = f"{archive_dir(store)}/{day:%Y-%m}/{PurePosixPath(rel).name}"
                plan.add(dest, text, (store.repo / dest).read_text(encoding="utf-8") if (store.repo / dest).is_file() else None,
                         reason=f"daily note older than {ttl} days")
                plan.add(rel, None, text, reason=f"moved to {dest}")
                archive_record.record(plan, store, [dest], today)
            continue
        if tier.ttl_days is None:
            continue
        doc = parsed.parse(text, rel)
        cuts = expired_cuts(doc, today, tier.ttl_days, tier.keep_last)
        if cuts and retention_keep.stages_durable(cfg, tier):
            to_stage += retention_keep.durable_in(doc, rel, cuts)
        if cuts:
            add_to_archive(plan, store, pending, rel, text, cuts)
            plan.add(rel, remove_lines(text, [(c.start, c.end) for c in cuts]), text,
                     reason=f"{len(cuts)} expired {plural(len(cuts), 'entry', 'entries')} archived")
    parsed.save(prune=False)   # only cold files were read: keep the others' rows for promote
    flush_archive(plan, store, pending, today)
    retention_keep.stage(plan, store, to_stage)
    archive_record.plan_purge(plan, store, today, delete_after)
    return plan


def fit_cuts(cfg, rel: str, text: str, tier, keep: str | None = None) -> tuple[str, list[Cut]]:
    """The oldest entries (then oldest log items) to archive so `text` gets under the warn
    level - headroom, so the next session does not block again; pinned sections never, nor a
    cut containing `keep`. The tier's `keep_last` newest entries go only while the file is
    still over max (a commit would be refused otherwise). Pure; one token count per cut."""
    doc = parse.parse(text, rel, cfg.labels)
    everything = expired_cuts(doc, date.max - timedelta(days=1), 0)   # every dated entry and log item
    older = {c.start for c in expired_cuts(doc, date.max - timedelta(days=1), 0, tier.keep_last)}
    pool = sorted(everything, key=lambda c: (c.start not in older, c.day, c.start))
    chosen: list[Cut] = []
    new = text
    lines = rawtext.split_lines(text)
    for cut in pool:
        level = "warn" if cut.start in older else "max"
        if not budget.over(new, tier, cfg.tokenizer, level):
            break           # under warn with older entries left, or under max on the newest
        if keep and keep in chunk(lines, cut):
            continue
        chosen.append(Cut(cut.start, cut.end, cut.day, "oldest entry archived to fit the budget", cut.heading))
        new = remove_lines(text, [(c.start, c.end) for c in chosen])
    return new, chosen


def fit_file(store, rel: str, text: str, tier, today: date, keep: str | None = None) -> tuple[str, list]:
    """`text` trimmed under the warn level: oldest entries first (`fit_cuts`), then, when only
    pinned sections are left over max, their bodies (largest first) with a pointer line.
    -> (new text, [(source text, cuts)]) for `add_to_archive`."""
    cfg = store.config
    new, chosen = fit_cuts(cfg, rel, text, tier, keep)
    moves = [(text, chosen)] if chosen else []
    if budget.over(new, tier, cfg.tokenizer):
        doc = parse.parse(new, rel, cfg.labels)
        dest = archive_path(store, rel, today)
        after, pinned = pinned_cuts(doc, new, today, dest, lambda t: budget.over(t, tier, cfg.tokenizer, "warn"))
        if pinned:
            moves.append((new, pinned))
            new = after
    return new, moves


def _moved_reason(moves: list) -> str:
    n = sum(len(c) for _, c in moves)
    return f"{n} oldest {plural(n, 'entry', 'entries')} (or oversized pinned sections) archived to fit the budget"


def plan_fit_file(plan: Plan, store, rel: str, old: str | None, text: str, tier, keep: str | None = None) -> int:
    """Add `rel` at `text` to the plan - trimmed to the warn level first when it is over max,
    its oldest entries archived in the same plan; the number of entries archived."""
    from tiergit.shell import clock

    moves: list = []
    new = text
    if tier.budget and budget.over(text, tier, store.config.tokenizer):
        new, moves = fit_file(store, rel, text, tier, clock.today(), keep)
    pending: dict[str, str] = {}
    for source, cuts in moves:
        add_to_archive(plan, store, pending, rel, source, cuts)
    flush_archive(plan, store, pending)
    plan.add(rel, new, old, reason=_moved_reason(moves) if moves else "")
    return sum(len(c) for _, c in moves)


def plan_fit(store, today: date) -> Plan:
    """Archive the oldest entries (then oldest log items, then oversized pinned sections) of
    each file over max until it is under the warn level (not just under max: the next session
    would block again)."""
    cfg = store.config
    plan = Plan("tiergit check --fix")
    pending: dict[str, str] = {}
    for rel in store.memory_files():
        tier = cfg.tier_for(rel)[0]  # type: ignore[index]
        if tier.reviewed or tier.lifetime == "session" or "{date}" in tier.path or not tier.budget or tier.in_place:
            continue
        try:
            text = _read(store, rel)
        except TiergitError:
            continue
        if not budget.over(text, tier, cfg.tokenizer):
            continue
        new, moves = fit_file(store, rel, text, tier, today)
        for source, cuts in moves:
            add_to_archive(plan, store, pending, rel, source, cuts)
        if moves:
            plan.add(rel, new, text, reason=_moved_reason(moves))
        if budget.over(new, tier, cfg.tokenizer):   # nothing left that can move: name the fix that works
            limits = {m: lim.max for m, lim in tier.budget.items()}
            measured = {m: budget.metric_value(new, m, cfg.tokenizer) for m in tier.budget}
            plan.notes.append(pinned_over_note(cfg.path.name, tier.name, rel, measured, limits))
    flush_archive(plan, store, pending, today)
    return plan


def fix_budgets(store, notes: list[str] | None = None) -> list[str]:
    """`check --fix`: archive oldest cold entries until each tier fits; the paths changed.
    A file still over max (pinned text only) gets a note in `notes` naming the fix."""
    from tiergit.shell import clock
    from tiergit.shell.fsutil import store_lock

    with store_lock(store.repo):
        plan = plan_fit(store, clock.today())
        if notes is not None:
            notes.extend(plan.notes)
        return plan.apply(store.repo)


def restore(store, rel: str) -> Plan:
    """Bring a file back from the newest commit that had it."""
    from tiergit.shell import git

    found = git.last_version(store.repo, rel)
    if found is None:
        raise TiergitError(f"{rel}: not found in this branch's git history",
                           "check the path (`git log --all -- PATH` lists where it lived)")
    rev, data = found
    path = store.repo / rel
    old = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
    plan = Plan("tiergit restore")
    plan.add(rel, data.decode("utf-8", "replace"), old, reason=f"from commit {rev[:12]}")
    return plan
