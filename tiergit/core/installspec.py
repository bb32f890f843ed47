"""Which pip requirement a GitHub runner can install tiergit from, and whether one is valid.

A runner reaches the network, not the developer's disk: a git remote becomes an https URL
(scp-style and ssh:// rewritten, credentials dropped), while a local path, a `file:` URL or
a wheel on disk cannot be installed there, so `init` stops and asks for `--install-spec`
instead of writing a workflow that fails on its first run. Validation uses `packaging`,
the parser pip itself vendors, so what passes here is what pip accepts.
Pure: text in, text or a SpecProblem out.
"""
from __future__ import annotations

import re

SCP_RE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.+)$")   # git@github.com:owner/repo.git
WINDOWS_PATH_RE = re.compile(r"^[A-Za-z]:[\\/]")
URL_RE = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<netloc>[^/?#]*)(?P<path>[^?#]*)")


def _host(netloc: str) -> str:
    """The host of a URL's netloc, without credentials or port."""
    host = netloc.rsplit("@", 1)[-1]
    return host if host.startswith("[") else host.split(":", 1)[0]
ASK = ("pass the requirement the workflows should install, e.g. --install-spec "
       "'tiergit @ git+https://github.com/<owner>/tiergit@<commit>' (or 'tiergit==<version>' "
       "from a package index the runner reaches)")


class SpecProblem(ValueError):
    """No requirement a runner can install, or one pip would refuse; `hint` says what to pass."""

    def __init__(self, message: str, hint: str = ASK) -> None:
        super().__init__(message)
        self.hint = hint


def runner_url(remote: str) -> str | None:
    """The remote as an https URL a runner can clone without credentials; None for a local path."""
    remote = remote.strip()
    if not remote or remote.startswith(("/", ".", "~", "file:")) or WINDOWS_PATH_RE.match(remote):
        return None
    if "://" in remote:
        parts = URL_RE.match(remote)
        if not parts or parts["scheme"] not in ("https", "http", "ssh", "git", "git+ssh", "git+https") \
                or not _host(parts["netloc"]):
            return None
        return f"https://{_host(parts['netloc'])}{parts['path']}"
    found = SCP_RE.match(remote)
    if found and "/" not in found.group(1):
        return f"https://{found.group(1)}/{found.group(2).lstrip('/')}"
    return None   # a relative path such as `../tiergit`


def git_spec(url: str, commit: str) -> str:
    return f"tiergit @ git+{url}@{commit}"


def check(spec: str) -> list[str]:
    """Notes about a requirement pip accepts; SpecProblem when pip would refuse it or it is not tiergit."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        req = Requirement(spec)
    except InvalidRequirement as exc:
        raise SpecProblem(f"--install-spec {spec!r} is not a requirement pip accepts: {exc}") from None
    if canonicalize_name(req.name) != "tiergit":
        raise SpecProblem(f"--install-spec {spec!r} installs {req.name!r}, not tiergit",
                          "name tiergit first: 'tiergit @ <url>' or 'tiergit==<version>'")
    url = re.sub(r"^(git|hg|svn|bzr)\+", "", req.url or "")
    parts = URL_RE.match(url)
    if req.url and not (parts and (parts["netloc"] or parts["scheme"] == "file")):
        raise SpecProblem(f"--install-spec {spec!r}: {req.url!r} is not a URL (pip reads it as a path and "
                          "refuses it)", "give a URL: 'tiergit @ git+https://<host>/<owner>/tiergit@<commit>'")
    if parts and parts["scheme"] == "file":
        return [f"  {spec} is on this machine: only a self-hosted runner that has that path can install it"]
    return []
