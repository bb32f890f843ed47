"""The `tiergit` commands: a lazy click group, entered from the one door (`tiergit/__main__.py`).

Imports inside functions here are the import budget of `tiergit --help` and of each command:
a command's module (and the store, git, its features) loads only when that command runs."""
from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import click

from tiergit import __version__
from tiergit.errors import TiergitError, guarded

# name -> ("module:attribute", first line of its help). The module is imported only when the
# command runs; `tiergit --help` lists the commands from this table alone (a test holds each
# line equal to the command's own help).
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("tiergit.commands.init:init",
     "Set up tiergit in this repository."),
    "install": ("tiergit.commands.init:install",
     "Install the pre-commit and post-merge hooks and the merge driver."),
    "uninstall": ("tiergit.commands.init:uninstall",
     "Remove tiergit's hooks (restoring any hook it chained) and the merge driver."),
    "check": ("tiergit.commands.check:check",
     "Check memory files against their tier budgets and content rules."),
    "status": ("tiergit.commands.status:status",
     "Show each tier and file: bytes, tokens, lines, % of budget, health."),
    "hook": ("tiergit.commands.hook:hook",
     "Run a git hook's tiergit part (the shims in .git/hooks call this)."),
    "session": ("tiergit.commands.session:session",
     "Start and end an agent's session (hot memory in, one cold entry out)."),
    "instructions": ("tiergit.commands.session:instructions",
     "Print the snippet that tells an agent how to use its memory tiers."),
    "transcript": ("tiergit.commands.transcript:transcript",
     "Work with agent session transcripts."),
    "context": ("tiergit.commands.context:context",
     "Print the spawn prompt for an agent: hot memory plus what the task needs."),
    "measure": ("tiergit.commands.measure:measure",
     "Show what a spawn costs per agent, before and after the tiers."),
    "recall": ("tiergit.commands.recall:recall",
     "Find what the team already knows: items ranked by BM25, best first."),
    "import": ("tiergit.commands.importer:import_",
     "Adopt an existing Squad or OpenClaw memory into tiers."),
    "promote": ("tiergit.commands.promote:promote",
     "Score promotion candidates and gate them into the reviewed wiki."),
    "propose": ("tiergit.commands.promote:propose",
     "Stage an agent's on-demand wiki write: skips the score gate, never the review."),
    "review": ("tiergit.commands.review:review",
     "Record review outcomes of promotions."),
    "archive": ("tiergit.commands.archive:archive",
     "Move expired entries and daily notes into the archive; old archive out of the tree."),
    "restore": ("tiergit.commands.archive:restore",
     "Bring a file back from git history (e.g. an archive month deleted by `archive`)."),
    "audit": ("tiergit.commands.audit:audit",
     "Find dead context in durable and warm tiers and propose archiving it."),
    "merge-driver": ("tiergit.commands.merge:merge_driver",
     "Merge two versions of a memory file entry by entry (git's %O %A %B %P)."),
    "history": ("tiergit.commands.history:history",
     "Show how each tier and memory file grew, commit by commit."),
    "report": ("tiergit.commands.report:report",
     "Write an HTML report: tiers and budgets, growth, health, candidates, reviews."),
    "mcp": ("tiergit.commands.mcp:mcp",
     "Serve the store to agents over MCP (stdio): recall, context, propose, session and status tools."),
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
        if name not in COMMANDS:
            return None
        module, attr = COMMANDS[name][0].split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, from the table: `--help` imports no command module."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=COMMANDS[n][1]).get_short_help_str(limit)) for n in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


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
    """`data` as indented JSON on stdout, written as it is encoded (a 50k-file `promote --json` is ~170 MB:
    one string of it, the list of pieces joined into it and a dict per row were a third of its peak memory)."""
    out, chunk, size = sys.stdout, [], 0
    for piece in json.JSONEncoder(indent=2, default=_json_value).iterencode(data):
        chunk.append(piece)
        size += len(piece)
        if size >= 1 << 16:
            out.write("".join(chunk))
            chunk, size = [], 0
    chunk.append("\n")
    out.write("".join(chunk))
    out.flush()


def run(argv: list[str]) -> int:
    """The click commands' exit code. click's own errors (usage, abort) are printed here; a
    TiergitError goes up to the one boundary (`errors.guarded`, entered from `__main__.main`)."""
    debug = "--debug" in argv
    try:
        # standalone_mode=False: click returns ctx.exit()'s code instead of exiting.
        code = cli.main(args=argv, prog_name="tiergit", standalone_mode=False)
    except (TiergitError, KeyboardInterrupt):
        raise
    except click.exceptions.Abort:
        click.echo("tiergit: aborted", err=True)
        return 2
    except click.ClickException as exc:
        exc.show()
        return 2
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - no tracebacks for users unless --debug
        if debug:
            raise
        click.echo(f"tiergit: internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("  hint: run again with --debug for a traceback, and report it", err=True)
        return 2
    return code if isinstance(code, int) else 0


def main(argv: list[str] | None = None) -> None:
    """The click commands behind the one boundary, for a script installed before the door moved
    (`tiergit.cli:main`; reinstalling points it at `tiergit.__main__:main`, with the fast paths)."""
    args = list(sys.argv[1:] if argv is None else argv)
    sys.exit(guarded(run, args, debug="--debug" in args))
