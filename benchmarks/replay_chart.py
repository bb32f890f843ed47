"""Draw the README's replay chart: one real agent's history, session by session, as the
legacy `history.md` an agent loads at spawn versus the spawn payload under tiergit.

Run: .venv/bin/python benchmarks/replay_chart.py [--agent-dir DIR] [--out docs/replay.svg]

Each committed version of corpus/<project>/replay/<agent>/ is one session. For each,
in a fresh squad store (the same in-process functions the CLI calls, as in bench_replay):
`session start` with the session's task, the lines the version added appended to hot as
that session's notes, `session end` (hot compacted into one cold entry, hot reset), then
`tiergit context --agent A` (hot only, the default) is built: its prompt is the spawn
payload the next session starts with. Plotted in tokens (cl100k_base):
  - legacy history.md: the whole file at that version (what Squad loads at every spawn),
  - tiergit spawn payload: the `context` prompt (template + hot tier),
  - cold tier: loaded only on demand (`--include-cold`, `recall`), shown for honesty.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "tests"))

import replay  # noqa: E402

from tiergit.core import charts  # noqa: E402
from tiergit.features import context, session
from tiergit.shell import config
from tiergit.shell.store import Store  # noqa: E402
from tiergit.shell.tokens import count_text  # noqa: E402

CORPUS = PROJECT.parent / "shared" / "corpus"
DEFAULT_AGENT = CORPUS / "martinopedal_azure-analyzer" / "replay" / "atlas"


def replay_sessions(agent_dir: Path, base: Path) -> list[dict]:
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    (base / ".tiergit.yml").write_text(config.preset_text("squad"))
    cfg = config.load(base)
    store = Store.open(base)
    agent = agent_dir.name
    hot = cfg.tier_file("hot", agent=agent)
    cold = cfg.tier_file("cold", agent=agent)
    rows, previous = [], ""
    # Session ids are random (8 hex digits in hot); number them so the chart is the same every run.
    ids = (f"s-{n:08x}" for n in range(1, 10**6))
    session.new_session_id = lambda: next(ids)
    for version in replay.versions(agent_dir):
        current = version.read_text()
        notes = replay.new_text(previous, current)
        previous = current
        when = replay.version_time(version)
        if notes.strip():
            session.start(cfg, agent, replay.task_of(notes, version.stem), now=when)
            hot.write_text(hot.read_text().rstrip("\n") + "\n\n" + notes)
            session.end(cfg, agent, now=when)
        spawn = context.build(store, agent, today=when.date())
        rows.append({
            "version": version.name,
            "date": when.date().isoformat(),
            "legacy_tokens": count_text(current, cfg.tokenizer).tokens,
            "legacy_bytes": len(current.encode()),
            "spawn_tokens": count_text(spawn.prompt, cfg.tokenizer).tokens,
            "cold_tokens": count_text(cold.read_text(), cfg.tokenizer).tokens if cold.is_file() else 0,
        })
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent-dir", type=Path, default=DEFAULT_AGENT)
    ap.add_argument("--out", type=Path, default=PROJECT / "docs" / "replay.svg")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = replay_sessions(args.agent_dir, Path(tmp) / "store")
    project = args.agent_dir.parent.parent.name
    title = f"Tokens loaded at spawn, {len(rows)} real sessions of {project}/{args.agent_dir.name}"
    svg = charts.svg_line_chart(
        [str(i) for i in range(1, len(rows) + 1)],
        [("legacy history.md (loaded every spawn)", [r["legacy_tokens"] for r in rows]),
         ("tiergit spawn payload (context, hot only)", [r["spawn_tokens"] for r in rows]),
         ("cold tier (on demand only)", [r["cold_tokens"] for r in rows])],
        title=title, unit="tokens", width=860, height=380,
        x_title=f"session (one committed history.md version each, {rows[0]['date']} to {rows[-1]['date']})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg + "\n")
    print(f"{'session':>7} {'date':<10} {'legacy tok':>10} {'spawn tok':>9} {'cold tok':>8}")
    for i, r in enumerate(rows, 1):
        print(f"{i:>7} {r['date']:<10} {r['legacy_tokens']:>10} {r['spawn_tokens']:>9} {r['cold_tokens']:>8}")
    last = rows[-1]
    print(f"after {len(rows)} sessions: legacy history.md {last['legacy_tokens']} tokens "
          f"({last['legacy_bytes']} bytes) vs tiergit spawn payload {last['spawn_tokens']} tokens "
          f"({100 * (1 - last['spawn_tokens'] / last['legacy_tokens']):.0f}% less); wrote {args.out}")


if __name__ == "__main__":
    main()
