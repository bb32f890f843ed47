"""Supersede on real memory: what the judgement flags among the dated statements of the newest history of
every Squad agent in the corpus (`<corpus>/*/replay/<agent>/`, last version). There are no labels here: the
pairs are printed for a reader, and the count is the figure (docs/staleness.md gives the reading).

    .venv/bin/python benchmarks/bench_supersede_real.py [--corpus /work/shared/corpus] [--show]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from tiergit.core import parse
from tiergit.core.supersede import scan
from tiergit.features.staleness import Cited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="/work/shared/corpus")
    parser.add_argument("--show", action="store_true", help="print each flagged pair")
    args = parser.parse_args()
    agents = [d for d in sorted(Path(args.corpus).glob("*/replay/*")) if any(d.glob("*.md"))]
    total, found = 0, []
    for agent in agents:
        doc = parse.parse(sorted(agent.glob("*.md"))[-1].read_text(errors="ignore"), "history.md")
        items = [((agent.parent.parent.name, agent.name, it.line), it.date or sec.date, it.text)
                 for sec in doc.sections for it in sec.items
                 if (it.date or sec.date) and Cited("h", it.line, it.id, it.text, it.date or sec.date, it.kind).statement()]
        total += len(items)
        text = {k: t for k, _, t in items}
        found += [(text[o], text[n], why) for o, n, why in scan(items)]
    print(f"{total} dated statements in the newest history of {len(agents)} agents: {len(found)} pairs flagged")
    for older, newer, why in found if args.show else []:
        print(f"-- {why}\n   older: {older.strip()[:160]}\n   newer: {newer.strip()[:160]}")


if __name__ == "__main__":
    main()
