"""What `init --with-workflows` writes: the workflow templates and tiergit's own action.yml,
filled in with an install spec that resolves on a runner and the store's paths.

The install spec comes from how this tiergit was installed (pip's `direct_url.json`):
a git install is pinned to the commit pip installed; a local checkout (editable or
not) is pinned to its HEAD at its `origin` remote; otherwise the release on PyPI.
Pure functions but for reading that metadata and two `git` calls on a checkout.
Cost: well under 100 ms.
"""
from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from tiergit import __version__
from tiergit.core.config import Config
from tiergit.shell import git, resources

ACTION_DIR = ".github/actions/tiergit"
SCP_RE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.+)$")   # git@github.com:owner/repo.git


def https_url(remote: str) -> str:
    """A remote as pip can fetch it without credentials: scp-style and ssh:// become https://;
    file:/// gets the host `localhost`, which PEP 508 wants in a URL and git accepts."""
    if remote.startswith("file:///"):
        return "file://localhost/" + remote[len("file:///"):]
    if remote.startswith("ssh://"):
        parsed = urlparse(remote)
        return f"https://{parsed.hostname}{parsed.path}"
    found = SCP_RE.match(remote)
    if found and "://" not in remote:
        return f"https://{found.group(1)}/{found.group(2)}"
    return remote


def install_spec(direct_url: str | None = None, read_origin=None) -> tuple[str, str]:
    """(pip requirement, where it came from). `direct_url`: the text of pip's direct_url.json."""
    if direct_url is None:
        try:
            direct_url = metadata.distribution("tiergit").read_text("direct_url.json")
        except metadata.PackageNotFoundError:
            direct_url = None
    data = json.loads(direct_url) if direct_url else {}
    vcs = data.get("vcs_info") or {}
    if vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return f"tiergit @ git+{https_url(data['url'])}@{vcs['commit_id']}", "the git commit pip installed tiergit from"
    if "dir_info" in data and data.get("url", "").startswith("file:"):
        origin = (read_origin or _origin_of)(Path(unquote(urlparse(data["url"]).path)))
        if origin:
            url, commit = origin
            return (f"tiergit @ git+{https_url(url)}@{commit}",
                    "HEAD of the checkout tiergit runs from, at its origin remote")
    return f"tiergit=={__version__}", "the release on PyPI"


def _origin_of(checkout: Path) -> tuple[str, str] | None:
    if not (checkout / ".git").exists():
        return None
    url = git.config_get(checkout, "remote.origin.url")
    commit = git.rev_parse(checkout, "HEAD")
    return (url, commit) if url and commit else None


def store_paths(cfg: Config) -> list[str]:
    """Pathspecs for everything promote and archive may change: the store and repo-level tier files."""
    paths = [cfg.root.rstrip("/")]
    for tier in cfg.tiers.values():
        if tier.path.startswith("/"):
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
