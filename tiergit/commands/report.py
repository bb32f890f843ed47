"""`tiergit report --html FILE`: one self-contained HTML page of the store's memory."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit.cli import echo_json, open_store
from tiergit.errors import TiergitError


@click.command()
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the report to FILE (one HTML file, no network needed to view it); - for stdout.")
@click.option("--json", "as_json", is_flag=True, help="Print the data behind the report.")
@click.pass_context
def report(ctx: click.Context, html_path: Path | None, as_json: bool) -> None:
    """Write an HTML report: tiers and budgets, growth, health, candidates, reviews.

    The page is self-contained (inline CSS and SVG, no script, no CDN): open it
    from a CI artifact, on a phone, or print it.

    \b
    Example:
      tiergit report --html memory-report.html
    """
    from tiergit.features import report as report_mod
    from tiergit.outfile import check_output, is_stdout, write_output

    if html_path is None and not as_json:
        raise TiergitError("report: nothing to do", "give --html FILE (and/or --json)")
    check_output(html_path, "--html", json_too=as_json)   # a link, FIFO or device: refused before any work
    store = open_store(ctx)
    model = report_mod.model(store)
    if html_path is not None:
        write_output(html_path, report_mod.render(model))
    if as_json:
        echo_json({**model, "html": str(html_path) if html_path else None})
    elif html_path is not None and not is_stdout(html_path):
        files = model["status"].total.files
        click.echo(f"tiergit: wrote {html_path} ({files} memory file(s), "
                   f"{len(model['history']['commits'])} commit(s) of history)")
