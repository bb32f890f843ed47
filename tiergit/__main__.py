import sys

if __name__ == "__main__":
    # The hook shims run `python -m tiergit hook NAME` on every commit: skip the CLI
    # framework's import (click) on that path. `--help` and `--json` still go to the CLI.
    args = sys.argv[1:]
    if args[:1] == ["hook"] and args[1:2] in (["pre-commit"], ["post-merge"]) and not {"-h", "--help", "--json"} & set(args):
        from tiergit.features.hookrun import main as hook_main

        sys.exit(hook_main(args[1]))
    if args[:1] == ["merge-driver"] and not {"-h", "--help", "--json"} & set(args):
        # git runs the driver once per file: no click, parser only for a real entry merge.
        from tiergit.features.driverrun import main as driver_main

        code = driver_main(args[1:])
        if code is not None:
            sys.exit(code)
    if args[:1] == ["recall"]:
        # agents ask once per question: a fresh index is answered without click or the config
        from tiergit.features.recall_fast import main as recall_main

        code = recall_main(args[1:])
        if code is not None:
            sys.exit(code)
    from tiergit.cli import main

    main()
