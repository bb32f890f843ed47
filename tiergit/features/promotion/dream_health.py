"""OpenClaw's Dreaming health, hour by hour: promotion recency, DREAMS.md moving, daily notes.

OpenClaw's memory-tiering skill checks nightly that Dreaming still runs: no run in 48 hours is a
warning, no output in 7 days is critical. tiergit applies that to what a run leaves in git: the
last promotion (`proposed` in the review log), Dreaming's output (OpenClaw's root DREAMS.md, not
tiergit's `.tiergit/candidates.md`) changing, and the
daily notes of a `{date}` tier. The checks are on whenever a schedule exists: a `schedule:` key
or the promotion workflow `init --with-workflows` writes. The judges are pure; `gather` reads
one log, one `git log` per file and a folder listing.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import PurePosixPath

from tiergit.shell import clock

WARN_HOURS = 48
CRIT_HOURS = 7 * 24
WORKFLOW = ".github/workflows/tiergit-promote.yml"
MARK = {"healthy": "ok", "warning": "WARN", "critical": "CRIT"}


def judge_hours(hours: float | None, scheduled: bool) -> str:
    """healthy up to 48 h, warning above 48 h, critical above 7 days (168 h); never-ran is
    critical. Off (healthy) without a schedule: an unscheduled team runs promotion by hand."""
    if not scheduled:
        return "healthy"
    if hours is None or hours > CRIT_HOURS:
        return "critical"
    return "warning" if hours > WARN_HOURS else "healthy"


def judge_daily(newest: date | None, today: date, scheduled: bool) -> str:
    """Daily notes: one for today or yesterday is healthy; none in the last 2 days a warning
    (the 48 h rule); none for more than 7 days critical."""
    if not scheduled:
        return "healthy"
    if newest is None:
        return "critical"
    gap = (today - newest).days
    return "critical" if gap > 7 else "warning" if gap >= 2 else "healthy"


def hours_since(then: datetime | None, now: datetime) -> float | None:
    return None if then is None else max(0.0, (now - then).total_seconds() / 3600)


def describe(hours: float | None) -> str:
    if hours is None:
        return "never"
    return f"{hours:.0f} h ago" if hours < 72 else f"{hours / 24:.1f} days ago"


@dataclass
class Check:
    name: str
    health: str
    note: str

    def as_dict(self) -> dict:
        return {"name": self.name, "health": self.health, "note": self.note}


def scheduled(store) -> bool:
    """A schedule exists: `schedule:` in .tiergit.yml, or the promotion workflow is installed."""
    return bool(store.config.schedule) or (store.repo / WORKFLOW).is_file()


def _parse_ts(value) -> datetime | None:
    try:
        ts = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return ts if ts.tzinfo else ts.replace(tzinfo=timezone.utc)


def last_event(events, action: str = "proposed") -> datetime | None:
    """The newest `ts` of `action` events (a malformed ts is skipped)."""
    times = [_parse_ts(e.get("ts", "")) for e in events if e.get("action") == action]
    return max((t for t in times if t is not None), default=None)


def file_moved(store, rel: str) -> datetime | None:
    """When `rel` last changed: its mtime if it differs from HEAD, else its last commit."""
    from tiergit.shell import git

    path = store.repo / rel
    if not path.is_file():
        return None
    try:
        dirty = bool(git.changed_paths(store.repo, [rel]))
        when = None if dirty else git.path_time(store.repo, rel)
    except Exception:  # noqa: BLE001 - not a git work tree: the file's own time is all there is
        when = None
    stamp = when if when is not None else path.stat().st_mtime
    return datetime.fromtimestamp(stamp, timezone.utc)


def newest_daily(store) -> date | None:
    """The newest date among the daily notes of `{date}` tiers (date from the file name)."""
    from tiergit.core.parse import heading_date

    days = []
    for name, tier in store.config.tiers.items():
        if "{date}" in tier.path:
            days += [heading_date(PurePosixPath(rel).name) for rel in store.tier_files(name)]
    return max((d for d in days if d), default=None)


def dreaming_output(store) -> str | None:
    """The file a Dreaming run writes: OpenClaw's root DREAMS.md in an OpenClaw workspace (never
    tiergit's own candidate listing, which `import` and `promote` write), else the config's staging."""
    from tiergit.features.promotion import openclaw_format

    dreams = openclaw_format.dreams_paths(store.config)
    if dreams:
        return dreams[0]
    return store.config.repo_path(store.config.staging) if store.config.staging else None


def checks(store, now: datetime | None = None) -> list[Check]:
    """The Dreaming checks that apply to this store (staging and daily only when configured)."""
    from tiergit.shell import logs

    now = now or clock.now()
    on = scheduled(store)
    why = "" if on else " (no schedule: set `schedule:` or `tiergit init --with-workflows` to check it)"
    last = last_event(logs.read(store, logs.REVIEWS))
    h = hours_since(last, now)
    when = f"on {last:%Y-%m-%d %H:%M} UTC, {describe(h)}" if last else "never"
    out = [Check("promotion", judge_hours(h, on), f"promotion: last {when}" + why)]
    rel = dreaming_output(store)
    if rel:
        # Dreaming's own output that does not exist yet: Dreaming never wrote it (never ran).
        h = hours_since(file_moved(store, rel), now)
        seen = f"changed {describe(h)}" if h is not None else "not written yet"
        out.append(Check("staging", judge_hours(h, on), f"dreaming: {rel} {seen}" + why))
    if any("{date}" in t.path for t in store.config.tiers.values()):
        newest = newest_daily(store)
        seen = f"newest {newest.isoformat()}" if newest else "none yet"
        out.append(Check("daily", judge_daily(newest, now.date(), on), f"daily notes: {seen}" + why))
    for c in out:
        if c.health != "healthy":
            limit = "over 7 days" if c.health == "critical" else "over 48 h"
            todo = "; run the promotion workflow" if c.name == "promotion" else ""
            c.note += f" ({MARK[c.health]}: {limit}{todo})"
    return out
