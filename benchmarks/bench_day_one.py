"""Green on day one, on every corpus project: adopt, work one session, commit through the hooks.

For every corpus project (Squad: `.squad/agents/*/history.md`; OpenClaw: `MEMORY.md` at the
top), in a fresh git repo with the project's files committed as they were:
`tiergit init --preset P` (hooks installed, no config edits), `import P --apply`, `git commit`
through the installed pre-commit hook; then one session - `session start`, five lines
written under the hot file's sections (a correction, a decision, an error cause, an open
item, a plain note), `session end` - and a second `git commit` through the hook.
Printed per project: whether each commit passed, the critical findings of
`check --all` after the session, the fullest cold file as % of its max after the
import (target: below the 80 % warn level, so the first sessions fit) and after the
session, and what `status` exits with. Floor for comparison, in the same run: the cold
fill tiergit's import aimed at before (the warn level, 80 %).

Usage: python benchmarks/bench_day_one.py [--only NAME]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", ROOT.parent / "shared" / "corpus"))
NOTES = {"Active decisions": ["- No, we use Bicep, not ARM, for every storage module.",
                              "- We keep one resource group per environment because billing reads it."],
         "Last actions": ["- The deploy failed because the storage account name had capitals; lower-cased it.",
                          "- Looked at the dashboard again."],
         "Blockers": ["- [ ] Ask the owner whether staging may be wiped."]}


def run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=repo, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})


def tg(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return run(repo, sys.executable, "-m", "tiergit", *args)


def commit(repo: Path, msg: str, hooks: bool = True) -> bool:
    run(repo, "git", "add", "-A")
    extra = [] if hooks else ["-c", "core.hooksPath=/dev/null"]
    return run(repo, "git", *extra, "commit", "-q", "--allow-empty", "-m", msg).returncode == 0


def write_notes(hot: Path) -> None:
    text = hot.read_text(encoding="utf-8")
    for section, lines in NOTES.items():
        head = f"## {section}\n"
        if head in text:
            at = text.index(head) + len(head)
            text = text[:at] + "".join(ln + "\n" for ln in lines) + text[at:]
    hot.write_text(text, encoding="utf-8")


def fullest(repo: Path) -> float:
    data = json.loads(tg(repo, "status", "--json").stdout or "{}")
    pcts = [f["percent"] for f in data.get("files", []) if f["tier"] in ("cold", "warm") and f.get("percent")]
    return max(pcts or [0.0])


def bench(project: Path, work: Path) -> dict:
    preset = "squad" if (project / ".squad").is_dir() else "openclaw"
    repo = work / project.name
    repo.mkdir()
    run(repo, "git", "init", "-q", "-b", "main")
    for item in project.iterdir():
        if item.name in ("replay", "SOURCE", "LICENSE", "README.md") or item.name.startswith("."):
            if item.name != ".squad":
                continue
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, repo / item.name)
    commit(repo, "the project as it was", hooks=False)
    out = {"project": project.name, "preset": preset}
    out["init"] = tg(repo, "init", "--preset", preset).returncode == 0
    imp = tg(repo, "import", preset, "--apply")
    out["import"] = imp.returncode == 0
    out["import_error"] = (imp.stderr.strip().splitlines() or [""])[0]
    out["after_import"] = fullest(repo)
    out["commit1"] = commit(repo, "tiergit: import")
    agent = []
    if preset == "squad":
        colds = sorted((repo / ".squad/memory/cold").glob("*.md"))
        agent = ["--agent", colds[0].stem] if colds else []
    tg(repo, "session", "start", *agent, "--task", "Write the storage module")
    hots = sorted(p for p in (repo / (".squad/memory/hot" if preset == "squad" else ".tiergit/hot")).glob("*.md"))
    if hots:
        write_notes(hots[0] if preset == "openclaw" else repo / ".squad/memory/hot" / f"{agent[1]}.md")
    out["session_end"] = tg(repo, "session", "end", *agent).returncode == 0
    out["after_session"] = fullest(repo)
    out["commit2"] = commit(repo, "first session")
    check = json.loads(tg(repo, "check", "--all", "--json").stdout or '{"critical": -1}')
    out["critical"] = check.get("critical", -1)
    out["status_rc"] = tg(repo, "status").returncode
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    projects = sorted(p for p in CORPUS.iterdir() if p.is_dir() and ((p / ".squad" / "agents").is_dir()
                      or (p / "MEMORY.md").is_file()) and (not a.only or a.only in p.name))
    if not projects:
        print(f"no corpus projects under {CORPUS}")
        return 2
    print(f"{'project':<44} {'import':>6} {'commit':>6} {'cold % of max':>13} {'session':>7} {'commit':>6} "
          f"{'after':>6} {'critical':>8} {'status':>6}")
    bad = 0
    with tempfile.TemporaryDirectory(prefix="tiergit-day-one-") as tmp:
        for project in projects:
            r = bench(project, Path(tmp))
            yes = lambda k: "ok" if r[k] else "FAIL"  # noqa: E731
            bad += (not r["import"]) + (not r["commit1"]) + (not r["session_end"]) + (not r["commit2"])
            bad += (r["critical"] != 0) + (r["after_import"] >= 80)
            print(f"{r['project']:<44} {yes('import'):>6} {yes('commit1'):>6} {r['after_import']:>12.0f}% "
                  f"{yes('session_end'):>7} {yes('commit2'):>6} {r['after_session']:>5.0f}% {r['critical']:>8} "
                  f"{r['status_rc']:>6}" + (f"  {r['import_error']}" if not r["import"] else ""), flush=True)
    print("floor: before this change import filled cold to the warn level (80 % of max)")
    print("OK: green on day one everywhere" if not bad else f"{bad} shortfall(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
