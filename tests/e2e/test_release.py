"""A release as a user meets it, offline: `python -m build` (sdist and wheel), `twine check
--strict`, the wheel installed in a fresh venv, `tiergit init --with-workflows` from there;
the written workflows validate (check-jsonschema's bundled schemas, zizmor --offline with no
finding >= medium) and the install spec they name resolves. Then the same from a git install,
whose spec names the commit. Neither a wheel on disk nor a `file:` URL is something a runner
can install, so `init` first stops and asks for `--install-spec`.

Offline: pip may use no index. The fresh venv sees tiergit's dependencies (and setuptools,
to build from git) through a .pth file naming a folder of links to exactly those installed
distributions, their metadata included, so pip's resolver finds them installed.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import git
from offline_build import lend, source_checkout

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BIN = Path(sys.executable).parent
OFFLINE = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "PIP_EXTRA_INDEX_URL": "", "PIP_CONSTRAINT": "",
           "PIP_CONFIG_FILE": os.devnull, "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
           "https_proxy": "http://127.0.0.1:9", "http_proxy": "http://127.0.0.1:9", "NO_PROXY": ""}


def run(*argv: str | Path, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **OFFLINE})
    assert done.returncode == 0, f"{' '.join(map(str, argv))}:\n{done.stdout}\n{done.stderr}"
    return done


def fresh_venv(tmp: Path, deps: Path) -> Path:
    venv = tmp / "fresh"
    run(sys.executable, "-m", "venv", venv)
    py = venv / "bin/python"
    site = Path(run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    (site / "zz-lent-dependencies.pth").write_text(f"{deps}\n")
    # Python < 3.12 seeds an old setuptools that would shadow the lent one (>=77, as pyproject wants).
    # Removed from the fresh venv's own folder only: never through the links to the lent copy.
    for seeded in [*site.glob("setuptools*"), *site.glob("_distutils_hack"), *site.glob("distutils-precedence.pth"),
                   *site.glob("pkg_resources")]:
        shutil.rmtree(seeded) if seeded.is_dir() and not seeded.is_symlink() else seeded.unlink()
    return py


def workflows_validate(repo: Path) -> None:
    flows = sorted((repo / ".github/workflows").glob("*.yml"))
    assert len(flows) == 3
    run(BIN / "check-jsonschema", "--no-cache", "--builtin-schema", "vendor.github-workflows", *flows)
    run(BIN / "check-jsonschema", "--no-cache", "--builtin-schema", "vendor.github-actions",
        repo / ".github/actions/tiergit/action.yml")
    found = run(BIN / "zizmor", "--offline", "--min-severity", "medium", "--format", "json", repo / ".github")
    assert json.loads(found.stdout) == []


def spec_in(repo: Path) -> str:
    data = yaml.safe_load((repo / ".github/workflows/tiergit-check.yml").read_text())
    (spec,) = {s["with"]["install-spec"] for s in data["jobs"]["check"]["steps"]
               if "with" in s and "install-spec" in s["with"]}
    return spec


def team_repo(tmp: Path, name: str, py: Path, asked: str, spec: str) -> Path:
    """init without a spec stops and asks (nothing written); with `spec` it writes the workflows."""
    repo = tmp / name
    repo.mkdir()
    git(repo, "init", "-q", "-b", "trunk")
    refused = subprocess.run([py.parent / "tiergit", "init", "--preset", "squad", "--with-workflows"], cwd=repo,
                             capture_output=True, text=True, timeout=300, env={**os.environ, **OFFLINE})
    assert refused.returncode == 2 and asked in refused.stderr and "--install-spec" in refused.stderr, refused
    assert "Traceback" not in refused.stderr and sorted(p.name for p in repo.iterdir()) == [".git"]
    done = run(py.parent / "tiergit", "init", "--preset", "squad", "--with-workflows", "--install-spec", spec,
               cwd=repo)
    assert f"workflows install `{spec}` (given with --install-spec)" in done.stdout
    return repo


def test_build_twine_fresh_venv_init_and_the_spec_resolves(tmp_path):
    src, commit = source_checkout(tmp_path)
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, src, timeout=600)
    built = sorted(p.name for p in dist.iterdir())
    version = run(sys.executable, "-c", "import tiergit; print(tiergit.__version__)").stdout.strip()
    assert built == [f"tiergit-{version}-py3-none-any.whl", f"tiergit-{version}.tar.gz"]
    run(BIN / "twine", "check", "--strict", *sorted(dist.iterdir()))

    deps = tmp_path / "deps"
    lend(deps)
    py = fresh_venv(tmp_path, deps)
    wheel = next(dist.glob("*.whl"))
    run(py, "-m", "pip", "install", "--no-index", wheel)          # dependencies resolved, none fetched
    run(py, "-m", "pip", "check")
    assert run(py.parent / "tiergit", "--version").stdout.strip().endswith(version)
    assert run(py, "-c", "import importlib.resources as r; print(r.files('tiergit').joinpath('py.typed').is_file())"
               ).stdout.strip() == "True"

    # From a wheel on disk no runner can install it: init asks; the release spec resolves where it is published.
    repo = team_repo(tmp_path, "team-from-wheel", py, "installed from the local file", f"tiergit=={version}")
    workflows_validate(repo)
    assert spec_in(repo) == f"tiergit=={version}"
    run(py, "-m", "pip", "download", "--no-deps", "--no-index", "--find-links", dist, "-d", tmp_path / "got",
        spec_in(repo))

    # From a git file: URL a runner cannot reach either: init asks; given, the commit installs before any release.
    url = f"git+file://localhost{src.as_posix()}@{commit}"   # PEP 508 wants a host in the URL
    run(py, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--force-reinstall", "--no-deps",
        f"tiergit @ {url}", timeout=600)
    repo = team_repo(tmp_path, "team-from-git", py, "which a runner cannot reach", f"tiergit @ {url}")
    workflows_validate(repo)
    assert spec_in(repo) == f"tiergit @ {url}"
    got = tmp_path / "got-git"
    run(py, "-m", "pip", "download", "--no-deps", "--no-index", "--no-build-isolation", "-d", got, spec_in(repo),
        timeout=600)
    assert any(got.iterdir())
