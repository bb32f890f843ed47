"""`tiergit history`: each tier's and file's size at every commit that touched the store."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store
from tiergit.core.charts import sparkline
from tiergit.core.status import tokens_text
from tiergit.features import history as history_mod


def render(model: dict) -> str:
    tiers = list(model["tiers"])
    points = model["commits"]
    scope = f" (agent {model['agent']})" if model.get("agent") else ""
    lines = [f"tiergit history: {model['root']}{scope}, {len(points)} commit(s) touched memory", ""]
    if not points:
        lines.append("(no commit touched the store or its legacy files"
                     + (f" since {model['since']})" if model.get("since") else " yet)"))
        return "\n".join(lines)
    cols = [f"{t} bytes" for t in tiers] + ["tier tokens", "legacy bytes"]
    width = max(11, *(len(c) for c in cols))
    header = f"{'commit':<8} {'date':<10} " + " ".join(f"{c:>{width}}" for c in cols) + "  subject"
    lines += [header, "-" * len(header)]
    for p in points:
        tier_tokens = sum(p["tiers"][t]["tokens"] for t in tiers)
        exact = all(p["tiers"][t]["tokens_exact"] for t in tiers)
        cells = [str(p["tiers"][t]["bytes"]) for t in tiers]
        cells += [tokens_text(tier_tokens, exact), str(p["legacy"]["bytes"])]
        subject = p["subject"] if len(p["subject"]) <= 50 else p["subject"][:49] + "…"
        lines.append(f"{p['commit'][:8]} {p['date'][:10]} " + " ".join(f"{c:>{width}}" for c in cells)
                     + f"  {subject}")
    lines += ["", f"{'file':<48} {'kind':<7} {'bytes now':>9}  growth (bytes, one mark per commit)"]
    for path, info in model["files"].items():
        values = history_mod.series(model, path)
        kind = info["tier"] or "legacy"
        name = path if len(path) <= 48 else "…" + path[-47:]
        lines.append(f"{name:<48} {kind:<7} {values[-1]:>9}  {sparkline(values[-40:])}")
    if not model["tokens_exact"]:
        lines.append("")
        lines.append("(~ marks token estimates: the blob-id token cache has no count for some versions;"
                     " `tiergit history --exact` counts them)")
    return "\n".join(lines)


@click.command()
@click.option("--since", metavar="DATE", help="Only commits on or after DATE (YYYY-MM-DD).")
@click.option("--agent", metavar="A", help="Only the files of agent A (its tier and legacy files).")
@click.option("--exact", is_flag=True, help="Count tokens exactly for every version (and cache them by blob id).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def history(ctx: click.Context, since: str | None, agent: str | None, exact: bool, as_json: bool) -> None:
    """Show how each tier and memory file grew, commit by commit.

    Reads git objects only (one `git log`, one `git cat-file`), never
    checks anything out. Legacy files from the config (Squad's history.md,
    decisions.md, MEMORY.md) are listed too, so before/after is visible.
    Token counts come from the blob-id token cache; others are estimates (~).

    \b
    Example:
      tiergit history --since 2026-05-01 --agent picard
    """
    from tiergit.core.configschema import check_slug

    store = open_store(ctx)
    if agent is not None:
        check_slug("agent", agent)
    model = history_mod.collect(store, since=since, agent=agent, exact=exact)
    if as_json:
        echo_json(model)
    else:
        click.echo(render(model))
