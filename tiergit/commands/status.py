"""`tiergit status`: per tier and file: bytes, tokens, lines, % of budget, health."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tiergit.cli import echo_json, open_store
from tiergit.core.status import FileStatus, StatusModel
from tiergit.features import budget
from tiergit.features.statusmodel import MARK, collect

if TYPE_CHECKING:
    from tiergit.shell.store import Store

def add_sparks(store: Store, model: StatusModel, last: int = 20) -> None:
    """Each file's `spark`: its size over its last committed versions (+ the working copy)."""
    from tiergit.core.charts import sparkline
    from tiergit.features.history import file_sparks

    sizes = file_sparks(store, last=last)
    for row in model.files:
        values = sizes.get(row.path, [])
        if not values or values[-1] != row.bytes:
            values = [*values, row.bytes][-last:]
        row.spark, row.spark_bytes = sparkline(values), values


def render(model: StatusModel) -> str:
    lines = [f"tiergit status: {model.root}", ""]
    w = max([6] + [len(f.tier) for f in model.files])   # a tier without files may overhang its column
    header = f"{'tier':<{w}} {'file':<44} {'bytes':>7} {'tokens':>7} {'lines':>6} {'budget':>7}  health"
    if any(f.spark for f in model.files):
        header += "  growth"
    lines.append(header)
    lines.append("-" * len(header))
    for tier in model.tiers:
        rows = [f for f in model.files if f.tier == tier.tier]
        if not rows:
            lines.append(f"{tier.tier:<{w}} {'(no files)':<44}")
        for r in rows:
            pct = f"{r.percent:.0f}%" if r.percent is not None else "-"
            name = r.path if len(r.path) <= 44 else "…" + r.path[-43:]
            lines.append(f"{r.tier:<{w}} {name:<44} {r.bytes:>7} {r.tokens_text:>7} {r.lines:>6} {pct:>7}  "
                         f"{MARK[r.health]:<4}" + (f"  {r.spark}" if r.spark else "")
                         + (f"  {r.error}" if r.error else ""))
    t = model.total
    lines.append("-" * len(header))
    lines.append(f"{'total':<{w}} {str(t.files) + ' file(s)':<44} {t.bytes:>7} {t.tokens_text:>7} {t.lines:>6} {'':>7}  "
                 f"{MARK[t.health]}")
    if not t.tokens_exact:
        lines.append("(~ marks token estimates; `tiergit status --deep` counts every file exactly)")
    return "\n".join(lines)


@click.command()
@click.option("--deep", is_flag=True, help="Count tokens exactly for every file, parse entries, and count "
              "promotion candidates on a store of over 200 memory files.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def status(ctx: click.Context, deep: bool, as_json: bool) -> None:
    """Show each tier and file: bytes, tokens, lines, % of budget, health.

    Health is healthy below the warn level, warning up to max, critical
    above it; exit 1 when a file is critical, as `check` does. Token counts
    under a file's token warn level are estimates (marked ~) unless cached
    or --deep is given. The archive and staging rows follow the tiers.

    \b
    Example:
      tiergit status --deep
    """
    store = open_store(ctx)
    model = collect(store, deep=deep)
    add_sparks(store, model)
    extra = _extras(store, model.files, deep)
    if extra:
        model.promotion = extra["promotion"]
        model.notes += extra.get("notes", [])
        # A stale Dreaming run is the store's health too: the total row says so.
        model.total.health = budget.worst([model.total.health, extra["promotion"]["health"]])
    model.notes += _hook_notes(store.repo)
    from tiergit.features.importing.squad_compat import (
        two_layer_notes,  # Squad keeps histories off this tree
    )

    model.notes += two_layer_notes(store.repo)
    _add_places(store, model)
    if as_json:
        echo_json(model)
    else:
        click.echo(render(model))
        _echo_places(model)
        for line in model.notes:
            click.echo(line)
    if any(f.health == "critical" for f in model.files):
        ctx.exit(1)     # like `check`: a file over its max blocks the next commit that touches it


def _add_places(store: Store, model: StatusModel) -> None:
    """The archive and staging rows (no tier, but the store's memory)."""
    from tiergit.features import storeplaces

    model.places = storeplaces.places(store)


def _echo_places(model: StatusModel) -> None:
    from tiergit.features import storeplaces

    for line in storeplaces.render(model.places or []):
        click.echo(line)


def _extras(store: Store, files: list[FileStatus], deep: bool) -> dict:
    """Promotion health: candidates waiting, days since the last promotion, files over budget."""
    from tiergit.features.promotion import promotion_health

    return promotion_health.extras(store, files, deep)


def _hook_notes(repo: Path) -> list[str]:
    """Installed hooks that misbehave (call themselves, cut off another tool's lines): one line each."""
    from tiergit.features.hookstate import inspect

    shown = ("HK002", "HK003", "HK006")
    return [f"hooks: {f.path}:{f.line}: {f.code} [{f.severity}] {f.message}"
            for f in inspect(repo) if f.code in shown]
