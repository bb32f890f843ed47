"""The one door: the installed `tiergit` script (`[project.scripts]`) and `python -m tiergit`
both enter at `main`, so agents typing `tiergit recall` get the same fast paths as the hook
shims. The imports below are function-local on purpose: git starts a hook per commit and a
driver per file, agents a recall per question, and each path imports only what it runs
(no click, PyYAML or markdown-it before it is needed). Every TiergitError from any path is
formatted once, by `errors.guarded`."""
import sys

from tiergit.errors import guarded

_NO_FAST = {"-h", "--help", "--json"}   # these go to the CLI, which prints help and JSON


def dispatch(args: list[str]) -> int:
    """The exit code of `tiergit ARGS`: the fast paths first, then the click commands."""
    if args[:1] == ["hook"] and args[1:2] in (["pre-commit"], ["post-merge"]) and not _NO_FAST & set(args):
        from tiergit.features.hookrun import run

        return run(args[1])
    if args[:1] == ["merge-driver"] and not _NO_FAST & set(args):
        # git runs the driver once per file: no click, parser only for a real entry merge.
        from tiergit.features.driverrun import main as driver_main

        code = driver_main(args[1:])
        if code is not None:
            return code
    if args[:1] == ["recall"]:
        # agents ask once per question: a fresh index is answered without click or the config
        from tiergit.features.recall_fast import main as recall_main

        code = recall_main(args[1:])
        if code is not None:
            return code
    from tiergit import cli

    return cli.run(args)


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    sys.exit(guarded(dispatch, args, debug="--debug" in args))


if __name__ == "__main__":
    main()
