"""`tiergit --help` lists the commands from cli.COMMANDS alone: each line must stay what the
command's own help would print, at any terminal width."""
from __future__ import annotations

import importlib

import click
import pytest

from tiergit import cli


def _command(name: str) -> click.Command:
    module, attr = cli.COMMANDS[name][0].split(":")
    return getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_table_line_is_the_commands_own_first_line(name: str) -> None:
    cmd = _command(name)
    own = " ".join((cmd.short_help or cmd.help or "").strip().split("\n\n")[0].split())
    assert cli.COMMANDS[name][1] == own
    assert not cmd.hidden and not cmd.deprecated   # the table listing shows neither mark


@pytest.mark.parametrize("width", [40, 80, 120, 200])
def test_listing_equals_clicks_own(width: int) -> None:
    ctx = click.Context(cli.cli, info_name="tiergit")
    fast, slow = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
    cli.cli.format_commands(ctx, fast)
    click.Group.format_commands(cli.cli, ctx, slow)   # imports every command module
    assert fast.getvalue() == slow.getvalue()
    assert "recall" in fast.getvalue()
