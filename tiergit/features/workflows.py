"""What `init --with-workflows` writes: the workflow templates and tiergit's own action.yml,
filled in with an install spec that resolves on a runner and the store's paths.

The install spec comes from how this tiergit was installed (pip's `direct_url.json`):
a git install is pinned to the commit pip installed, a local checkout (editable or not)
to its HEAD at its `origin` remote, both as https URLs (`core/installspec.py`); an index
install (no direct_url.json) to its release. A local path, a path origin or a wheel on
disk is something no runner can install: `init` stops and asks for `--install-spec`.
Pure functions but for reading that metadata and three `git` calls on a checkout.
Cost: well under 100 ms.
"""
from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from tiergit import __version__
from tiergit.core import installspec
from tiergit.core.config import Config
from tiergit.shell import git, resources

ACTION_DIR = ".github/actions/tiergit"


def install_spec(direct_url: str | None = None, read_origin=None) -> tuple[str, str]:
    """(pip requirement, where it came from), or SpecProblem when a runner could install none.

    `direct_url`: the text of pip's direct_url.json (pip writes none for an index install)."""
    direct_url = _direct_url() if direct_url is None else direct_url
    if not direct_url:
        return f"tiergit=={__version__}", "the release on the package index this tiergit came from"
    data = json.loads(direct_url)
    where = data.get("url", "")
    vcs = data.get("vcs_info") or {}
    if vcs.get("vcs") == "git" and vcs.get("commit_id"):
        url = installspec.runner_url(where)
        if url is None:
            raise installspec.SpecProblem(f"tiergit was installed from {where}, which a runner cannot reach")
        return installspec.git_spec(url, vcs["commit_id"]), "the git commit pip installed tiergit from"
    if "dir_info" in data and where.startswith("file:"):
        checkout = Path(unquote(urlparse(where).path))
        origin = (read_origin or _origin_of)(checkout)
        if origin is None:
            raise installspec.SpecProblem(f"tiergit runs from the checkout {checkout}, which has no origin remote")
        remote, commit = origin
        url = installspec.runner_url(remote)
        if url is None:
            raise installspec.SpecProblem(f"tiergit runs from the checkout {checkout}, whose origin {remote!r} "
                                          "is a local path a runner cannot reach")
        return installspec.git_spec(url, commit), "HEAD of the checkout tiergit runs from, at its origin remote"
    raise installspec.SpecProblem(f"tiergit was installed from the local file {unquote(urlparse(where).path)}, "
                                  "which no runner can install")


def _direct_url() -> str | None:
    try:
        return metadata.distribution("tiergit").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None


def _origin_of(checkout: Path) -> tuple[str, str] | None:
    if not (checkout / ".git").exists():
        return None
    url = git.config_get(checkout, "remote.origin.url")
    commit = git.rev_parse(checkout, "HEAD")
    return (url, commit) if url and commit else None


def unpushed_note(direct_url: str | None = None) -> list[str]:
    """A note when the checkout's HEAD is on no remote branch yet (the runner could not fetch it)."""
    data = json.loads((_direct_url() if direct_url is None else direct_url) or "{}")
    if "dir_info" not in data or not data.get("url", "").startswith("file:"):
        return []
    checkout = Path(unquote(urlparse(data["url"]).path))
    if not (checkout / ".git").exists() or git.on_a_remote_branch(checkout, "HEAD") is not False:
        return []
    return [f"  HEAD of {checkout} is on no remote branch yet: push it before the workflows run"]


def store_paths(cfg: Config) -> list[str]:
    """Pathspecs for everything promote and archive may change: the store and repo-level tier files."""
    paths = [cfg.root.rstrip("/")]
    for tier in cfg.tiers.values():
        if tier.path.startswith("/") and not tier.in_place:   # a tier read in place is never written
            paths.append(re.sub(r"\{[^}]*\}", "*", tier.path.lstrip("/")))
    return list(dict.fromkeys(paths))


def fill(text: str, spec: str, cfg: Config) -> str:
    """A template with its @PLACEHOLDERS@ replaced (YAML double-quoted values)."""
    quote = lambda s: s.replace("\\", "\\\\").replace('"', '\\"')  # noqa: E731
    return (text.replace("@TIERGIT_SPEC@", quote(spec))
                .replace("@ADD_PATHS@", quote(",".join(store_paths(cfg))))
                .replace("@LOG_PATHS@", quote(cfg.repo_path(cfg.logs).rstrip("/"))))


def files(cfg: Config, spec: str, standard: bool = True, reusable: bool = False) -> dict[str, str]:
    """{repo-relative path: text} that `init` writes: the workflows and the action they call
    (`standard`), and the organization-wide `workflow_call` workflow (`reusable`)."""
    out: dict[str, str] = {}
    if standard:
        out[f"{ACTION_DIR}/action.yml"] = resources.read("action", "action.yml")
        found = [s for s in resources.template("workflows").iterdir() if s.name.endswith(".yml")]
        for src in sorted(found, key=lambda s: s.name):
            out[f".github/workflows/{src.name}"] = fill(src.read_text(encoding="utf-8"), spec, cfg)
    if reusable:
        src = resources.template("org", "tiergit-reusable.yml")
        out[f".github/workflows/{src.name}"] = fill(src.read_text(encoding="utf-8"), spec, cfg)
    return out
