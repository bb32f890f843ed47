"""The `tiergit` command: a lazy click group, so a hook imports only what it runs."""
from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import click

from tiergit import __version__
from tiergit.errors import TiergitError

# name -> "module:attribute", imported only when the command runs (keeps `--help` and hooks fast).
COMMANDS: dict[str, str] = {
    "init": "tiergit.commands.init:init",
    "install": "tiergit.commands.init:install",
    "uninstall": "tiergit.commands.init:uninstall",
    "check": "tiergit.commands.check:check",
    "status": "tiergit.commands.status:status",
    "hook": "tiergit.commands.hook:hook",
    "session": "tiergit.commands.session:session",
    "instructions": "tiergit.commands.session:instructions",
    "transcript": "tiergit.commands.transcript:transcript",
    "context": "tiergit.commands.context:context",
    "measure": "tiergit.commands.measure:measure",
    "recall": "tiergit.commands.recall:recall",
    "import": "tiergit.commands.importer:import_",
    "promote": "tiergit.commands.promote:promote",
    "propose": "tiergit.commands.promote:propose",
    "review": "tiergit.commands.review:review",
    "archive": "tiergit.commands.archive:archive",
    "restore": "tiergit.commands.archive:restore",
    "audit": "tiergit.commands.audit:audit",
    "merge-driver": "tiergit.commands.merge:merge_driver",
    "history": "tiergit.commands.history:history",
    "report": "tiergit.commands.report:report",
    "mcp": "tiergit.commands.mcp:mcp",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """A mistyped command names the closest ones, as git does ("Did you mean 'status'?")."""
        name = args[0] if args else ""
        if name and name not in COMMANDS and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, COMMANDS, n=3, cutoff=0.6)
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint} `tiergit --help` lists every command.")
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Repository to work in (default: the one containing the current folder).")
@click.option("--debug", is_flag=True, help="Show a traceback on errors.")
@click.version_option(__version__, prog_name="tiergit")
@click.pass_context
def cli(ctx: click.Context, repo: Path | None, debug: bool) -> None:
    """Tiered, git-versioned memory for AI agent teams.

    Memory lives in markdown tiers inside your repo: hot (this session, always
    loaded), cold (summarized history, on demand) and wiki (reviewed knowledge).
    Hooks keep every tier inside its budget; promotions arrive as pull requests.

    \b
    Quick start:
      tiergit init --preset squad      # config, folders, hooks
      tiergit status                   # sizes and health per tier
      tiergit check --all              # what the pre-commit hook enforces
    """
    ctx.ensure_object(dict)
    ctx.obj["repo"] = repo
    ctx.obj["debug"] = debug


def open_store(ctx: click.Context):
    """The Store for --repo (or the cwd). Commands call this, never Store.open directly."""
    from tiergit.shell.store import Store

    return Store.open(ctx.obj.get("repo") if ctx.obj else None)


def repo_root(ctx: click.Context) -> Path:
    from tiergit.shell import git

    start = (ctx.obj or {}).get("repo") or Path.cwd()
    return git.work_root(start)


def _json_value(obj):
    """A model record's `as_dict()` (the one place records become JSON), else its text."""
    as_dict = getattr(obj, "as_dict", None)
    return as_dict() if callable(as_dict) else str(obj)


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2, default=_json_value, sort_keys=False))


def main(argv: list[str] | None = None) -> None:
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        # standalone_mode=False: click returns ctx.exit()'s code instead of exiting.
        code = cli.main(args=argv, prog_name="tiergit", standalone_mode=False)
    except TiergitError as exc:
        click.echo(f"tiergit: error: {exc.message}", err=True)
        if exc.hint:
            click.echo(f"  hint: {exc.hint}", err=True)
        if debug:
            raise
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("tiergit: aborted", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # noqa: BLE001 - no tracebacks for users unless --debug
        if debug:
            raise
        click.echo(f"tiergit: internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("  hint: run again with --debug for a traceback, and report it", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)
