"""The status model (tiergit.core.status): per tier and file, bytes, tokens, lines, % of budget
and health, read by the status command, charts,
the HTML report, the MCP server and the post-merge hook. Lives outside `tiergit/commands/`
so those lower layers never import a command module. Cost: one read + measure per file.
"""
from __future__ import annotations

from pathlib import Path

from tiergit.core import charts, parse, rawtext
from tiergit.core.status import FileStatus, StatusModel, TierStatus, TotalStatus
from tiergit.errors import InputError
from tiergit.features import budget
from tiergit.shell import progress
from tiergit.shell.readsafe import read_regular
from tiergit.shell.store import Store

MARK = {"healthy": "ok", "warning": "WARN", "critical": "CRIT"}


def collect(store: Store, deep: bool = False, only: list[str] | None = None) -> StatusModel:
    """The status model: every memory file (or `only` these), its tier and the total."""
    cache = store.token_cache
    files: list[FileStatus] = []
    rels = only if only is not None else store.memory_files()
    # Files the token cache cannot know yet (all of them on a first run): the counter is chosen
    # for the whole run, not for the first file alone. (A few named files: no need to read
    # every shard of the cache to know that.)
    uncounted = max(0, len(rels) - len(cache)) if only is None else 0
    # --deep draws its bar at once; a plain status only once it has run a second (a first run)
    for rel in progress.iterate(rels, "status: counting tokens", minimum=progress.MIN_ITEMS if deep else len(rels) + 1):
        match = store.tier_of(rel)
        if match is None:
            continue
        tier = match[0]
        path = store.abs(rel)
        if path.is_symlink():
            continue
        try:
            data = read_regular(path, rel)  # a FIFO or device is reported, never read
        except InputError as exc:
            files.append(FileStatus(rel, tier.name, "critical", error=str(exc)))
            continue
        try:
            text = rawtext.decode(data, rel, store.config.limits["max_file_bytes"])
        except Exception as exc:  # noqa: BLE001 - status reports, check refuses
            files.append(FileStatus(rel, tier.name, "critical", bytes=len(data), error=str(exc)))
            continue
        m = budget.measure(text, data, tier, cache, store.working_blob(data), force_tokens=deep,
                           more=len(text) * uncounted)
        fh = budget.judge(rel, tier, m)
        row = FileStatus(rel, tier.name, fh.health, m.bytes, m.lines, m.tokens, m.tokens_exact,
                         round(fh.percent, 1) if fh.verdicts else None,
                         {k: {"warn": v.warn, "max": v.max} for k, v in tier.budget.items()})
        if deep:
            _count_items(row, text, store.config.labels)
        files.append(row)
    cache.save()
    tiers = []
    for name, tier in store.config.tiers.items():
        rows = [f for f in files if f.tier == name]
        if tier.in_place and not rows:
            continue        # a framework's own store this repo does not use (no Squad here)
        tiers.append(TierStatus(name, tier.load, len(rows), sum(r.bytes for r in rows),
                                sum(r.tokens for r in rows), sum(r.lines for r in rows),
                                budget.worst(r.health for r in rows)))
    total = TotalStatus(len(files), sum(f.bytes for f in files), sum(f.tokens for f in files),
                        sum(f.lines for f in files), all(f.tokens_exact for f in files),
                        budget.worst(f.health for f in files))
    return StatusModel(store.config.root, tiers, files, total)


def _count_items(row: FileStatus, text: str, labels) -> None:
    """--deep: entries, pinned sections and items, or the parse error that stopped it."""
    try:
        doc = parse.parse(text, row.path, labels)
        row.entries, row.pinned, row.items = len(doc.entries), len(doc.pinned), len(doc.items)
    except Exception as exc:  # noqa: BLE001
        row.error, row.health = str(exc), "critical"


def post_merge_report(repo: Path) -> str:
    from tiergit.shell import git

    store = Store.open(repo)
    orig = git.rev_parse(repo, "ORIG_HEAD")
    if orig is None:
        return ""
    changed = [p for p in git.changed_files(repo, orig, "HEAD") if store.tier_of(p)]
    if not changed:
        return ""
    model = collect(store, only=changed)
    lines = [f"tiergit: the merge changed {len(changed)} memory file(s):"]
    for r in model.files:
        pct = f"{r.percent:.0f}% of budget" if r.percent is not None else "no budget"
        lines.append(f"  {MARK[r.health]:<4} {r.path} ({r.bytes} bytes, {r.tokens_text} tokens, {pct})")
    over = [r.path for r in model.files if r.health == "critical"]
    if over:
        from tiergit.core.fixhint import fixes_for

        lines.append("  hint: over-budget files will block the next commit that touches them; "
                     f"fix them with {fixes_for(store.config, over)}")
    return "\n".join(lines)


def mermaid_tier_sizes(store) -> str:
    """A complete ```mermaid fenced block of every tier's files against their budgets,
    for PR bodies and $GITHUB_STEP_SUMMARY (GitHub renders it natively)."""
    return charts.mermaid_budget_chart(charts.budget_rows(collect(store)))


def summary_chart(store) -> str:
    """The tier chart for a job summary, with a caption; '' if the store cannot be measured
    (the check that writes the summary has already reported why)."""
    try:
        block = mermaid_tier_sizes(store)
    except Exception:  # noqa: BLE001 - a chart never fails a check
        return ""
    return "### Memory size against budget\n\n" + block
