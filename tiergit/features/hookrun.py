"""What the installed hook shims run, without the CLI framework: a hook runs on every
commit, so it imports only what it uses (`tiergit hook …` comes straight here from the door,
`tiergit/__main__.py`, whose boundary prints any TiergitError; post-merge exits 0 even then)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from tiergit.errors import TiergitError, render


def _say(text: str) -> None:
    sys.stderr.write(text.rstrip("\n") + "\n")


def _json(data: dict) -> None:
    import json

    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


def gate_patterns(cfg) -> list[str]:
    """What makes a staged path worth the full hook: a tier file, anything under the store
    (secrets in non-tier files, links) or a legacy file the secret scan reads."""
    import re
    from fnmatch import translate

    from tiergit.features import secretscope
    from tiergit.features.checkrun import store_prefixes

    out = [t.regex.pattern for t in cfg.tiers.values() if t.regex]
    out += [re.escape(prefix) + "/" for prefix in store_prefixes(cfg)]
    out += [translate(pattern) for pattern in secretscope.legacy_globs(cfg)]
    return out


def pre_commit(repo: Path, as_json: bool = False, staged: list | None = None) -> int:
    """Check the staged memory blobs; 1 refuses the commit. Never touches the index.
    `staged`: `git.staged_changes` when the caller already ran it."""
    from tiergit.core import diagnostics
    from tiergit.features.checkrun import findings_of, run_checks, staged_sources
    from tiergit.shell import config as config_mod
    from tiergit.shell import git, hookgate
    from tiergit.shell.tokens import TokenCache

    # The commit's own config: a staged .tiergit.yml, not unstaged edits to it.
    staged_config = git.index_file(repo, config_mod.CONFIG_NAME)
    cfg = config_mod.from_bytes(staged_config, repo) if staged_config is not None else config_mod.load(repo)
    gd = hookgate.git_dir_of(repo) or git.git_dir(repo)   # read from .git / $GIT_DIR: no process
    if staged_config is not None or (repo / config_mod.CONFIG_NAME).is_file():
        hookgate.save_patterns(repo, gd, gate_patterns(cfg), staged_config)
    cache = TokenCache.for_repo(gd, cfg.tokenizer)
    sources = staged_sources(repo, cfg, staged, cache)
    if not sources and not as_json:
        return 0
    reports = run_checks(sources, cfg, cache) if sources else []
    findings = findings_of(reports)
    refused = any(f.severity == "critical" for f in findings)
    if as_json:
        _json({"hook": "pre-commit", "files": len(reports), "refused": refused,
               "findings": [f.__dict__ for f in findings]})
        return 1 if refused else 0
    if findings:
        _say(diagnostics.render(findings, "text"))
    if refused:
        _say(diagnostics.summary_line(findings, len(reports)) + " -- commit refused")
        _say("  (fix the files and `git add` them; TIERGIT=0 git commit skips this check)")
        return 1
    return 0


def post_merge(repo: Path, as_json: bool = False) -> int:
    """Report the health of memory files the merge changed. Always 0: never blocks."""
    try:
        from tiergit.features.statusmodel import post_merge_report

        text = "\n".join(filter(None, [post_merge_report(repo), _against_repo(repo)]))
        if as_json:
            _json({"hook": "post-merge", "report": text or ""})
        elif text:
            _say(text)
    except TiergitError as exc:   # reported here, not by the boundary: the JSON carries it too
        _say(render(exc, "post-merge"))
        if as_json:
            _json({"hook": "post-merge", "report": "", "error": exc.message})
    except Exception as exc:  # noqa: BLE001 - a report must never fail a merge
        _say(f"tiergit: post-merge report failed ({type(exc).__name__}: {exc})")
        if as_json:
            _json({"hook": "post-merge", "report": "", "error": f"{type(exc).__name__}: {exc}"})
    return 0


def _against_repo(repo: Path) -> str:
    """What the merge did to memory's citations and claims (features/staleness.py); never raises."""
    try:
        from tiergit.features import staleness_merge
        from tiergit.shell.store import Store

        return "\n".join(staleness_merge.after_merge(Store.open(repo)))
    except Exception as exc:  # noqa: BLE001 - a report must never fail a merge
        return f"tiergit: post-merge staleness check skipped ({type(exc).__name__}: {exc})"


def run(name: str, start: Path | str | None = None, as_json: bool = False) -> int:
    from tiergit.shell import git, hookgate

    repo = git.work_root(start or ".")
    # lexists, not is_file: a FIFO or device named .tiergit.yml is refused by config.load
    # (TG006), not taken for "no tiergit here", which skipped every check.
    if not os.path.lexists(repo / hookgate.CONFIG_NAME):
        if as_json:
            _json({"hook": name, "skipped": f"no {hookgate.CONFIG_NAME}"})
        return 0  # not a tiergit repo (yet): a hook never gets in the way
    if name != "pre-commit":
        return post_merge(repo, as_json)
    # Most commits stage no memory file: decide that before importing the config and checks.
    staged = git.staged_changes(repo)
    if not as_json and hookgate.nothing_to_check(repo, hookgate.git_dir_of(repo), staged):
        return 0
    return pre_commit(repo, as_json, staged)
