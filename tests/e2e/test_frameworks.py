"""tiergit's day on workspaces made by the real Squad and OpenClaw CLIs, then their own checks.

Slow (npm installs on the first run, then minutes of Node start-ups): marked `frameworks`
and run only with TIERGIT_FRAMEWORKS=1 (CI sets it). Installs go to a cache outside the
repository (see frameworks.py); one that cannot be done fails the test saying why.
Every tiergit step is the real CLI, every commit goes through the installed hooks.
"""
from __future__ import annotations

import json
import os
import re
from datetime import date, timedelta
from pathlib import Path

import frameworks
import pytest
from conftest import commit, git, ok, tiergit, write
from tiergit.shell import clock

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.frameworks,
    pytest.mark.skipif(os.environ.get("TIERGIT_FRAMEWORKS") != "1",
                       reason="slow: installs Squad and OpenClaw from npm; run with TIERGIT_FRAMEWORKS=1"),
]
TODAY = clock.today()


def _cli(which):
    try:
        return frameworks.install(which)
    except frameworks.InstallError as exc:
        pytest.fail(f"cannot install {which[0]}: {exc}", pytrace=False)


def _day(n: int) -> str:
    return (TODAY - timedelta(days=n)).isoformat()


def test_squad_workspace_keeps_squad_green(repo):
    squad = _cli(frameworks.SQUAD)
    proc = squad.run(repo, "init", "--no-workflows")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    own = [".squad/memory/config.json", ".squad/memory/index.json", ".squad/memory/audit.jsonl"]
    assert all((repo / p).is_file() for p in own) and (repo / ".squad/agents/Rai/history.md").is_file()
    # Scribe's writes, as Squad's history format has them.
    hist = repo / ".squad/agents/Rai/history.md"
    hist.write_text(hist.read_text() + f"\n### Prompt review ({_day(3)})\n\n"
                    "**Key lesson:** Flag any personal data before it reaches a prompt.\n")
    commit(repo, "squad init")

    ok(tiergit(repo, "init", "--preset", "squad"))
    attrs = (repo / ".gitattributes").read_text()
    assert ".squad/decisions.md merge=union" in attrs and ".squad/memory/cold/*.md merge=tiergit" in attrs
    for path in own + [".squad/memory/local/notes.md"]:
        assert git(repo, "check-attr", "merge", "--", path).stdout.strip().endswith("unspecified"), path
    commit(repo, "tiergit init")

    imported = ok(tiergit(repo, "import", "squad", "--apply")).stdout
    assert "Rai: agent files use the slug 'rai'" in imported
    assert "Flag any personal data" in (repo / ".squad/memory/cold/rai.md").read_text()
    commit(repo, "tiergit: import squad")
    status = ok(tiergit(repo, "status")).stdout
    assert ".squad/memory/cold/rai.md" in status and "config.json" not in status and "index.json" not in status

    ok(tiergit(repo, "session", "start", "--agent", "rai", "--task", "Review the prompt templates"))
    hot = repo / ".squad/memory/hot/rai.md"
    hot.write_text(hot.read_text().replace("## Blockers\n", "- [decision] Prompts never carry raw user e-mail.\n\n"
                                           "## Blockers\n", 1))
    ok(tiergit(repo, "session", "end", "--agent", "rai"))
    commit(repo, "session")
    promoted = json.loads(ok(tiergit(repo, "promote", "--apply", "--json")).stdout)
    ok(tiergit(repo, "archive", "--apply"))
    if promoted["promote"] == 0:
        assert git(repo, "status", "--porcelain", "--", ".squad/memory/wiki").stdout == ""
    if git(repo, "status", "--porcelain").stdout:
        commit(repo, "promote and archive")

    retired = ok(tiergit(repo, "import", "squad", "--apply", "--retire-legacy")).stdout
    assert ".squad/decisions.md: kept" in retired and (repo / ".squad/decisions.md").is_file()
    if git(repo, "status", "--porcelain").stdout:
        commit(repo, "retire legacy histories")
    assert ok(tiergit(repo, "check", "--all")).returncode == 0
    assert all((repo / p).is_file() for p in own)

    doctor = squad.run(repo, "doctor")
    out = doctor.stdout + doctor.stderr
    assert doctor.returncode == 0 and re.search(r"\b0 failed\b", out), out


SQUAD_WIRED = (".github/agents/squad.agent.md", ".squad/templates/spawn-reference.md",
               ".squad/agents/scribe/charter.md")


def _coordinator_commands(repo: Path, name: str) -> list[list[str]]:
    """The tiergit commands Squad's coordinator is told to run before a spawn, read from the
    file Squad uses (its `{name}` and `<task>` filled in as the coordinator would)."""
    text = (repo / ".github/agents/squad.agent.md").read_text()
    section = text[text.index("### How to Spawn an Agent"):text.index("**Full Spawn Template**")]
    cmds = re.findall(r"`(tiergit (?:session start|context) [^`]+)`", section)
    return [c.replace("{name}", name).replace('"<task>"', "TASK").split() for c in cmds]


def test_squad_spawns_through_tiergit(repo):
    squad = _cli(frameworks.SQUAD)
    proc = squad.run(repo, "init", "--no-workflows")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    commit(repo, "squad init")
    original = {rel: (repo / rel).read_bytes() for rel in SQUAD_WIRED}

    out = ok(tiergit(repo, "init", "--preset", "squad")).stdout
    assert all(f"wired {rel}" in out for rel in SQUAD_WIRED), out
    # The template Squad's coordinator fills for every spawn: its memory line now points at tiergit.
    template = (repo / ".squad/templates/spawn-reference.md").read_text().splitlines()
    at = next(i for i, ln in enumerate(template) if "Read `agents/{name}/history.md`" in ln)
    assert template[at + 1].strip().startswith("MEMORY (tiergit): the coordinator pasted `tiergit context")
    assert "tiergit session end --agent <name>" in (repo / ".squad/agents/scribe/charter.md").read_text()
    commit(repo, "tiergit init")

    # What the coordinator runs for Rai, read from squad.agent.md, carries the session's correction.
    ok(tiergit(repo, "import", "squad", "--apply"))
    ok(tiergit(repo, "session", "start", "--agent", "rai", "--task", "Review the templates"))
    hot = repo / ".squad/memory/hot/rai.md"
    hot.write_text(hot.read_text().replace("## Blockers\n", "- [correction] No, we use Bicep, not ARM.\n\n"
                                           "## Blockers\n", 1))
    ok(tiergit(repo, "session", "end", "--agent", "rai"))
    cmds = _coordinator_commands(repo, "rai")
    assert [c[1] for c in cmds] == ["session", "context"], cmds
    prompt = ""
    for cmd in cmds:
        args = [a if a != "TASK" else "Write the storage module" for a in cmd[1:]]
        prompt = ok(tiergit(repo, *args)).stdout
    assert "we use Bicep, not ARM" in prompt and "You are **rai**" in prompt
    # the memory is tiergit's tiers (a fresh Squad history fits cold whole; the corpus is measured
    # in benchmarks/bench_squad_spawn.py)
    assert "<!-- .squad/memory/hot/rai.md -->" in prompt and "<!-- .squad/memory/cold/rai.md -->" in prompt
    commit(repo, "a session")
    doctor = squad.run(repo, "doctor")
    assert doctor.returncode == 0 and re.search(r"\b0 failed\b", doctor.stdout + doctor.stderr), doctor.stdout

    # `squad upgrade` rewrites the coordinator and the template: check reports it, --fix restores it.
    proc = squad.run(repo, "upgrade")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    upgraded = {rel: (repo / rel).read_bytes() for rel in SQUAD_WIRED}
    report = tiergit(repo, "check", "--all").stdout
    lost = {rel for rel in SQUAD_WIRED if f"{rel}:1: SQW001" in report}
    assert ".github/agents/squad.agent.md" in lost, report
    assert "tiergit check --fix" in report
    fixed = tiergit(repo, "check", "--fix")
    assert fixed.returncode == 1 and all(rel in fixed.stdout for rel in lost), fixed.stdout
    assert "SQW001" not in tiergit(repo, "check", "--all").stdout
    assert _coordinator_commands(repo, "rai")

    # uninstall gives Squad its own bytes back (those `squad upgrade` wrote, where it rewrote them).
    ok(tiergit(repo, "uninstall"))
    for rel in SQUAD_WIRED:     # a file the upgrade left alone (the Scribe charter): squad init's bytes
        assert (repo / rel).read_bytes() == (upgraded[rel] if rel in lost else original[rel]), rel
    doctor = squad.run(repo, "doctor")
    assert doctor.returncode == 0 and re.search(r"\b0 failed\b", doctor.stdout + doctor.stderr), doctor.stdout


def test_squad_two_layer_state_is_detected_and_explained(repo):
    squad = _cli(frameworks.SQUAD)
    proc = squad.run(repo, "init", "--no-workflows", "--state-backend", "two-layer")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ok(tiergit(repo, "init", "--preset", "squad"))
    out = ok(tiergit(repo, "import", "squad")).stdout
    assert "Squad state backend is 'two-layer'" in out and "squad-state" in out
    # Squad's own pre-commit guard still runs after tiergit installed its hook in front of it.
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-q", "-m", "state into the work tree", check=False)
    assert refused.returncode != 0 and "two-layer" in refused.stderr


def _openclaw(cli, ws: Path, state: Path, *args: str, timeout: int = 300):
    return cli.run(ws, *args, timeout=timeout, OPENCLAW_STATE_DIR=str(state), NO_COLOR="1")


def _openclaw_workspace(tmp_path: Path):
    """(the CLI, a workspace `openclaw setup` made and git tracks, its state dir)."""
    claw = _cli(frameworks.OPENCLAW)
    ws, state = tmp_path / "ws", tmp_path / "state"
    made = _openclaw(claw, tmp_path, state, "setup", "--baseline", "--workspace", str(ws))
    assert made.returncode == 0 and (ws / "AGENTS.md").is_file(), made.stdout + made.stderr
    if not (ws / ".git").is_dir():
        git(ws, "init", "-q")
    return claw, ws, state


def test_openclaw_workspace_keeps_openclaw_memory_working(tmp_path):
    claw, ws, state = _openclaw_workspace(tmp_path)
    # Notes as OpenClaw writes them: one per day, one per session (-HHMM), one per topic (-slug).
    notes = {f"memory/{_day(1)}.md": "- [rule] Always pin Docker image digests in compose files.\n",
             f"memory/{_day(0)}-1432.md": "- [fact] The backup job runs at 03:00 on the NAS.\n",
             f"memory/{_day(2)}-zebra-migration.md": "- Talked about the zebra migration plan.\n",
             f"memory/{_day(40)}.md": "- [fact] The old VPS was decommissioned.\n"}
    for rel, body in notes.items():
        write(ws / rel, f"# {rel[7:17]}\n\n{body}")
    write(ws / "MEMORY.md", "# MEMORY.md - Long-Term Memory\n\n## Preferences\n\n- Answers short, code first.\n")
    commit(ws, "openclaw workspace")

    ok(tiergit(ws, "init", "--preset", "openclaw"))
    commit(ws, "tiergit init")
    ok(tiergit(ws, "import", "openclaw", "--apply"))
    commit(ws, "tiergit: import openclaw")
    for rel in notes:
        assert (ws / rel).is_file(), rel            # nothing moved out of OpenClaw's reach

    ok(tiergit(ws, "session", "start", "--task", "Tidy the compose files"))
    hot = ws / ".tiergit/hot/MEMORY.md"
    hot.write_text(hot.read_text().replace("## Blockers\n", "- [preference] Replies in British English #style\n\n"
                                           "## Blockers\n", 1))
    commit(ws, "hot notes")
    ok(tiergit(ws, "session", "end"))
    warm = ws / ".tiergit/warm/MEMORY.md"
    warm.write_text(re.sub(r"^### \d{4}-\d\d-\d\d", f"### {_day(45)}", warm.read_text(), flags=re.M))
    commit(ws, "session end")

    # A note OpenClaw wrote itself is checked like any other: a token there is refused.
    leak = ws / f"memory/{_day(0)}-0915.md"
    write(leak, "# session\n\n- token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n")
    git(ws, "add", "-A")
    refused = git(ws, "commit", "-q", "-m", "leak", check=False)
    assert refused.returncode == 1 and leak.name in refused.stdout + refused.stderr
    git(ws, "rm", "-q", "--cached", "--", leak.relative_to(ws).as_posix())
    leak.unlink()

    for query in ("replies British English", "British English replies style", "replies in British English",
                  "English replies", "British style replies"):
        ok(tiergit(ws, "recall", query))
    commit(ws, "recalls")
    promo = json.loads(ok(tiergit(ws, "promote", "--apply", "--json")).stdout)
    assert promo["promote"] >= 1
    memory = (ws / "MEMORY.md").read_text()
    assert f"## Promoted From Short-Term Memory ({TODAY.isoformat()})" in memory
    assert "<!-- openclaw-memory-promotion:memory:.tiergit/warm/MEMORY.md:" in memory and "^m-" not in memory
    commit(ws, "tiergit: promote")
    again = json.loads(ok(tiergit(ws, "promote", "--apply", "--json")).stdout)
    assert again["promote"] == 0 and git(ws, "status", "--porcelain").stdout == ""
    ok(tiergit(ws, "archive", "--apply"))
    commit(ws, "tiergit: archive")
    assert (ws / f"memory/archive/{_day(40)[:7]}/{_day(40)}.md").is_file()

    # Hot and warm reach the model through OpenClaw's bootstrap-extra-files hook, configured
    # with the lines `tiergit init` printed. `openclaw doctor` lists every file the agent's
    # bootstrap injects once a tiny per-file limit makes it report truncation.
    init_lines = [ln.strip() for ln in ok(tiergit(ws, "init", "--dry-run")).stdout.splitlines()
                  if ln.strip().startswith("openclaw config set")]
    assert len(init_lines) == 2
    for line in init_lines:
        key, value = line.split()[3], line.split(" ", 4)[4].rsplit(" --strict-json", 1)[0].strip("'")
        proc = _openclaw(claw, ws, state, "config", "set", key, value, "--strict-json")
        assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = _openclaw(claw, ws, state, "config", "set", "agents.defaults.bootstrapMaxChars", "20", "--strict-json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doctor = _openclaw(claw, ws, state, "doctor", "--non-interactive", timeout=600)
    injected = [int(n.replace(",", "")) for n in re.findall(r"- MEMORY\.md: ([\d,]+) raw", doctor.stdout)]
    assert len(injected) == 3, doctor.stdout           # the root MEMORY.md, hot and warm
    for rel in (".tiergit/hot/MEMORY.md", ".tiergit/warm/MEMORY.md", "MEMORY.md"):
        text = (ws / rel).read_text()                   # OpenClaw counts the trimmed text
        assert any(len(text.strip()) <= n <= len(text) for n in injected), (rel, len(text), injected)

    # OpenClaw's own checks.
    index = _openclaw(claw, ws, state, "memory", "index", timeout=600)
    assert index.returncode == 0 and "files indexed" in index.stdout, index.stdout + index.stderr
    status = _openclaw(claw, ws, state, "memory", "status")
    assert status.returncode == 0 and "Indexed:" in status.stdout, status.stdout + status.stderr
    found = _openclaw(claw, ws, state, "memory", "search", "docker image digests")
    assert found.returncode == 0 and f"memory/{_day(1)}.md" in found.stdout, found.stdout + found.stderr
    found = _openclaw(claw, ws, state, "memory", "search", "backup job NAS")
    assert f"memory/{_day(0)}-1432.md" in found.stdout, found.stdout + found.stderr
    spawn = _openclaw(claw, ws, state, "memory", "search", "Tidy the compose files")
    assert ".tiergit/" not in spawn.stdout, spawn.stdout        # tiergit's files stay out of memory search
    harness = _openclaw(claw, ws, state, "memory", "rem-harness", "--json", timeout=600)
    assert harness.returncode == 0, harness.stdout + harness.stderr
    assert f"memory/{_day(1)}.md" in harness.stdout and "no YYYY-MM-DD" not in harness.stdout + harness.stderr
    preview = _openclaw(claw, ws, state, "memory", "promote")
    assert preview.returncode == 0 and "source file is missing" not in preview.stdout + preview.stderr


def test_openclaw_recalls_reach_the_gate(tmp_path):
    """`openclaw memory search` (what the agent's memory_search tool runs) records each recall in
    OpenClaw 2026.9's state database; tiergit's promotion reads it there, for this workspace only, and
    a Dreaming candidate citing the recalled lines gets those recalls, distinct queries and days."""
    claw, ws, state = _openclaw_workspace(tmp_path)
    note = f"memory/{_day(3)}.md"
    write(ws / note, f"# {_day(3)}\n\n- Always pin Docker image digests in compose files.\n"
                     "- The backup job runs at 03:00 on the NAS.\n")
    write(ws / "DREAMS.md", "# Dreams\n\n- [likely_durable] Always pin Docker image digests in compose files "
                            f"[{note}:3]\n")
    ok(tiergit(ws, "init", "--preset", "openclaw"))

    def recalls(env_state: Path) -> dict:
        out = json.loads(ok(tiergit(ws, "promote", "--json", env={"OPENCLAW_STATE_DIR": str(env_state)})).stdout)
        return next(c for c in out["candidates"] if c["source"].startswith("DREAMS.md:"))

    assert recalls(state)["recalls"] == 0
    index = _openclaw(claw, ws, state, "memory", "index", timeout=600)
    assert index.returncode == 0, index.stdout + index.stderr
    for query in ("docker image digests", "pin docker digests", "compose file digests"):
        found = _openclaw(claw, ws, state, "memory", "search", query)
        assert found.returncode == 0 and note in found.stdout, found.stdout + found.stderr
    assert not (ws / "memory/.dreams/short-term-recall.json").exists()   # 2026.9 keeps it in its database
    row = recalls(state)
    assert row["recalls"] == 3 and row["signals"]["diversity"] > 0
    assert recalls(tmp_path / "another-state")["recalls"] == 0           # another OpenClaw's recalls: not ours
    # The session's end copies them into the committed log: the nightly runner, without OpenClaw's
    # database, counts them too.
    ok(tiergit(ws, "session", "start", "--task", "compose files", env={"OPENCLAW_STATE_DIR": str(state)}))
    ended = ok(tiergit(ws, "session", "end", env={"OPENCLAW_STATE_DIR": str(state)}))
    assert "OpenClaw recall entr" in ended.stdout, ended.stdout
    commit(ws, "session end")
    assert recalls(tmp_path / "another-state")["recalls"] == 3


def test_openclaw_dreaming_health_follows_its_dreams_md(tmp_path):
    """Dreaming health reads OpenClaw's own diary: before OpenClaw writes DREAMS.md tiergit says so; after
    the real CLI's `memory rem-backfill` writes it, tiergit reports it fresh."""
    claw, ws, state = _openclaw_workspace(tmp_path)
    write(ws / f"memory/{_day(5)}.md", f"# {_day(5)}\n\n- Always run restic check after a prune.\n")
    ok(tiergit(ws, "init", "--preset", "openclaw"))

    def dreaming() -> str:
        notes = json.loads(ok(tiergit(ws, "status", "--json")).stdout)["notes"]
        return next(n for n in notes if n.startswith("dreaming:"))

    assert "DREAMS.md not written yet" in dreaming()
    wrote = _openclaw(claw, ws, state, "memory", "rem-backfill", "--path", "memory")
    assert wrote.returncode == 0 and (ws / "DREAMS.md").is_file(), wrote.stdout + wrote.stderr
    assert "openclaw:dreaming:diary" in (ws / "DREAMS.md").read_text()
    assert "DREAMS.md changed 0 h ago" in dreaming()


def test_openclaws_memory_flush_prompt_is_never_knowledge(tmp_path):
    """OpenClaw's pre-compaction flush puts its own prompt in the session, and daily-note transcripts keep
    it ("Store durable memories only in memory/2026-04-19.md …" read as a rule); so do its session-reset
    prompt and its reminder after a compaction. Every flush hint of the installed memory-core, its date
    filled in, and those two prompts are junk to the kind judgement, so neither `import openclaw`
    stages it nor the gate proposes it; a real rule about where memories go is not."""
    from tiergit.core import judge

    dist = _cli(frameworks.OPENCLAW).bin.resolve().parent / "dist"
    source = (dist / "extensions" / "memory-core" / "index.js").read_text()
    hints = re.findall(r'const MEMORY_FLUSH_\w+_HINT = "([^"]+)";', source)
    assert len(hints) >= 3, "memory-core's flush hints moved: read flush-plan.ts again"
    # its session-reset prompt (`/new`, `/reset`) and the reminder after a compaction, which notes keep too
    reset = [m for f in dist.glob("get-reply-*.mjs")
             for m in re.findall(r'const BARE_SESSION_RESET_PROMPT_BASE = "([^"]+)";', f.read_text())]
    compacted = [m for f in dist.glob("builtin-openclaw-*.mjs")
                 for m in re.findall(r"Session was just compacted\. [^`$]*?before responding to the user\.", f.read_text())]
    assert reset and compacted, "OpenClaw's reset or compaction prompt moved: read session-reset-prompt.ts again"
    for hint in [*hints, *reset, *compacted]:
        line = hint.replace("YYYY-MM-DD", "2026-04-19")
        assert judge.junk(line) == "a framework's own prompt (OpenClaw's flush, reset or compaction prompt)", line
        assert judge.plain_kind(line) is None and judge.plain_kind(f"- {line}") is None, line
    assert judge.junk("Keep durable decisions in the wiki, never in daily notes.") is None
    # and the note a real flush leaves: staged nothing from its prompt lines
    note = tmp_path / "2026-04-19.md"
    write(note, "# 2026-04-19\n\n## Session\n\n" + "\n\n".join(h.replace("YYYY-MM-DD", "2026-04-19") for h in hints)
          + "\n\n- Always pin image digests in compose files.\n")
    from tiergit.core import parse

    kinds = {it.text.strip(): it.kind for s in parse.parse(note.read_text(), "memory/2026-04-19.md", notes=True).sections
             for it in s.items}
    assert kinds.pop("- Always pin image digests in compose files.") == "rule"
    assert set(kinds.values()) <= {"context"}, kinds
