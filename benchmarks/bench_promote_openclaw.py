"""Promotion on the corpus's real OpenClaw workspaces, with recalls replayed through the real OpenClaw CLI.

The OpenClaw half of bench_promote_real.py. For each corpus workspace (corpus/openclaw_*), in a temp
folder (never the project):

1. `openclaw setup --baseline` makes a real OpenClaw state dir and workspace; the corpus's AGENTS.md,
   SOUL.md and USER.md replace setup's. The daily notes `memory/YYYY-MM-DD*.md` dated up to the day at
   40 % of the workspace's note days (PROMOTE_OPENCLAW_CUT, the cut) are copied in, each day's notes
   committed on that day (git author and committer dates), so `git blame` dates their lines; MEMORY.md
   is the corpus's replay/MEMORY version of the cut day or before, DREAMS.md the corpus's DREAMS.md
   without its entries dated after the cut (openclaw_format.entry_days). Nothing from after the cut.
2. `tiergit init --preset openclaw` and `tiergit import openclaw --apply` (the real CLI, in a
   subprocess, on the cut day), committed; `openclaw memory index`.
3. Each later note day is a day of real use: its notes' topics go to the real `openclaw memory search`
   (what the agent's memory_search tool runs), which writes OpenClaw's own short-term recall store in
   the state sqlite. The query, fixed before any run and blind to the gate: each markdown heading of
   the day's notes (file-name order, then line order), with dates, times, numbers, markdown marks and
   punctuation removed, first 12 words, kept when 2 words or more remain, duplicates dropped, and
   dropped when an earlier note (any day before) had the same heading (a layout heading such as
   "Conversation Summary" names no subject); a note with no heading left gives its first non-heading
   line the same way. The first
   PROMOTE_OPENCLAW_PER_DAY (2) of a day are searched. Days: evenly over the later days, first and
   last kept, PROMOTE_OPENCLAW_SEARCHES (12) searches in all (each search is a Node start, about 10 s
   here). The later notes themselves are not copied in: each would be its own query's best hit.
   OpenClaw's CLI takes its day from the process clock (memory-core's resolveMemoryCoreNowMs falls back
   to Date.now()), so a Node `--import` preload shifts Date to noon UTC of that day: the store records
   that day in `recallDays` and `lastRecalledAt`.
4. `promote` (the preview, promote.build as the CLI runs it, with TIERGIT_TODAY and OPENCLAW_STATE_DIR
   set) the night after each search day, and 1, 7 and 30 nights after the last (the openclaw preset has
   no age rule, so later nights can only lose to recency). Before any search: the same gate with no use.
   Last, `tiergit session start` / `session end` (the real CLI) copy the store into
   logs/openclaw-recalls.jsonl, and `promote` with another state dir shows the committed log carries
   the same recalls.

Prints per workspace: note days (before / after the cut), searches, store entries, candidates,
durable candidates, recalled candidates and the recalls reaching the gate, proposals (no use / any
night), and the failed checks of every candidate the day after the last search (what
`promote --explain` reports per candidate). --proposed writes each proposal by reference (corpus path,
1-based line, sha256 of the line; a sentence candidate adds s<N>) with its PR text and its line: the
blind view a reader labels (no verdict, no score). Labels: tests/labels/promote_openclaw.tsv.

    python benchmarks/bench_promote_openclaw.py [--corpus PATH] [--proposed FILE] [--only NAME]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "tests"))
sys.path.insert(0, str(PROJECT))

import frameworks  # noqa: E402

CUT = float(os.environ.get("PROMOTE_OPENCLAW_CUT", "0.4"))
SEARCHES = int(os.environ.get("PROMOTE_OPENCLAW_SEARCHES", "12"))
PER_DAY = int(os.environ.get("PROMOTE_OPENCLAW_PER_DAY", "2"))
AFTER = (1, 7, 30)                      # nights after the last search day
NOTE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:-[A-Za-z0-9][A-Za-z0-9._-]*)?\.md$")
DURABLE = ("decision", "rule", "fact", "correction")
# Shift OpenClaw's clock to the replayed day (noon UTC), keeping it running: the CLI has no clock option.
CLOCK_MJS = """const day = process.env.OPENCLAW_BENCH_DAY;
if (day) {
  const RealDate = Date, realNow = RealDate.now.bind(RealDate);
  const offset = RealDate.parse(`${day}T12:00:00Z`) - realNow();
  class ShiftedDate extends RealDate {
    constructor(...a) { if (a.length === 0) super(realNow() + offset); else super(...a); }
    static now() { return realNow() + offset; }
  }
  globalThis.Date = ShiftedDate;
}
"""
DATE_TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(?::\d{2})?|\b\d{4}\b")
WORDS_RE = re.compile(r"[^\W_][\w'./+-]*", re.U)


def _git(root: Path, *args: str, day: date | None = None) -> None:
    env = {**os.environ, "TIERGIT": "0", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    if day is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{day.isoformat()}T12:00:00+00:00"
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _commit(root: Path, message: str, day: date) -> None:
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", message, "--allow-empty", day=day)


def _tiergit(ws: Path, *args: str, day: date, **env: str) -> subprocess.CompletedProcess:
    """The real tiergit CLI in a subprocess, on `day`."""
    proc = subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=ws, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(PROJECT), "TIERGIT_TODAY": day.isoformat(), **env})
    if proc.returncode != 0:
        raise RuntimeError(f"tiergit {' '.join(args)}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return proc


def note_days(corpus_ws: Path) -> dict[date, list[Path]]:
    """The workspace's daily notes (top level of memory/) by the day in their name."""
    out: dict[date, list[Path]] = {}
    for p in sorted((corpus_ws / "memory").iterdir()):
        m = NOTE_RE.match(p.name)
        if p.is_file() and m:
            try:
                out.setdefault(date.fromisoformat(m[1]), []).append(p)
            except ValueError:
                continue
    return dict(sorted(out.items()))


def _query_words(line: str) -> str:
    text = DATE_TIME_RE.sub(" ", re.sub(r"[*_`#>\[\]()|~]", " ", line))
    words = [w.strip(".,;:!?'\"-") for w in WORDS_RE.findall(text)]
    return " ".join(w for w in words if w and not w.replace(".", "").isdigit())


def headings(note: Path) -> list[str]:
    """A note's headings as queries: cleaned, first 12 words, 2 words or more."""
    lines = note.read_text(encoding="utf-8", errors="replace").splitlines()
    heads = [ln for ln in lines if re.match(r"#{1,6}\s", ln)]
    return [q for q in (" ".join(_query_words(h).split()[:12]) for h in heads) if len(q.split()) >= 2]


def queries_of(notes: list[Path], template: set[str]) -> list[str]:
    """A day's queries: its notes' headings, cleaned (module docstring), without the headings an
    earlier note already had (`template`: "Conversation Summary", "Key Decisions" name a note's
    layout, not its subject); a note without any other gives its first line. Blind to the gate: only
    the notes' own text is read."""
    out: list[str] = []
    for note in notes:
        lines = note.read_text(encoding="utf-8", errors="replace").splitlines()
        picked = [q for q in headings(note) if q.lower() not in template]
        if not picked:
            first = next((ln for ln in lines if ln.strip() and not ln.startswith("#") and not ln.startswith("---")), "")
            q = " ".join(_query_words(re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", first)).split()[:12])
            picked = [q] if len(q.split()) >= 2 else []
        out += [q for q in picked if q not in out]
    return out


def _evenly(items: list, n: int) -> list:
    if len(items) <= n:
        return items
    if n <= 1:
        return items[:n]
    idx = sorted({round(k * (len(items) - 1) / (n - 1)) for k in range(n)})
    return [items[i] for i in idx]


def _memory_version(corpus_ws: Path, cut: date) -> Path | None:
    versions = sorted((corpus_ws / "replay" / "MEMORY").glob("*.md")) if (corpus_ws / "replay" / "MEMORY").is_dir() else []
    dated = [(date.fromisoformat(v.name.split("_")[1]), v) for v in versions if re.match(r"\d+_\d{4}-\d\d-\d\d_", v.name)]
    before = [v for d, v in dated if d <= cut]
    return before[-1] if before else None


class Workspace:
    """One corpus workspace replayed in a temp folder; `lines[rel]` maps each copied file's line number
    (1-based) to (corpus path relative to the corpus, corpus line)."""

    def __init__(self, corpus: Path, corpus_ws: Path, tmp: Path, claw):
        self.corpus, self.src, self.claw = corpus, corpus_ws, claw
        self.ws, self.state = tmp / "ws", tmp / "state"
        self.clock = tmp / "clock.mjs"
        self.clock.write_text(CLOCK_MJS, encoding="utf-8")
        self.lines: dict[str, list[tuple[str, int]]] = {}
        self.searches: list[tuple[date, str, int]] = []

    def _copy(self, src: Path, rel: str, keep: list[int] | None = None) -> None:
        text = src.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        keep = keep if keep is not None else list(range(1, len(text) + 1))
        dest = self.ws / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text("".join(text[n - 1] for n in keep), encoding="utf-8")
        self.lines[rel] = [(src.relative_to(self.corpus).as_posix(), n) for n in keep]

    def openclaw(self, *args: str, day: date | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
        env = {"OPENCLAW_STATE_DIR": str(self.state), "NO_COLOR": "1"}
        if day is not None:
            env |= {"NODE_OPTIONS": f"--import {self.clock.as_uri()}", "OPENCLAW_BENCH_DAY": day.isoformat()}
        proc = self.claw.run(self.ws, *args, timeout=timeout, **env)
        if proc.returncode != 0:
            raise RuntimeError(f"openclaw {' '.join(args)}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
        return proc

    def build(self) -> tuple[date, list[date], dict[date, list[Path]]]:
        """Steps 1 and 2: (the cut day, the older note days, the notes by day)."""
        days = note_days(self.src)
        ordered = list(days)
        cut = ordered[max(1, int(len(ordered) * CUT)) - 1]
        older = [d for d in ordered if d <= cut]
        made = self.claw.run(self.ws.parent, "setup", "--baseline", "--workspace", str(self.ws), timeout=600,
                             OPENCLAW_STATE_DIR=str(self.state), NO_COLOR="1")
        if made.returncode != 0:
            raise RuntimeError(f"openclaw setup: {made.stdout}{made.stderr}")
        if not (self.ws / ".git").is_dir():
            _git(self.ws, "init", "-q", "-b", "main")
        for name in ("AGENTS.md", "SOUL.md", "USER.md"):
            if (self.src / name).is_file():
                self._copy(self.src / name, name)
        _commit(self.ws, "workspace", older[0])
        for d in older:
            for note in days[d]:
                self._copy(note, f"memory/{note.name}")
            _commit(self.ws, f"notes {d}", d)
        memory = _memory_version(self.src, cut)
        if memory is not None:
            self._copy(memory, "MEMORY.md")
        if (self.src / "DREAMS.md").is_file():
            from tiergit.features.promotion import openclaw_format

            per_line = openclaw_format.entry_days((self.src / "DREAMS.md").read_text(encoding="utf-8", errors="replace"))
            self._copy(self.src / "DREAMS.md", "DREAMS.md",
                       [n for n, d in enumerate(per_line, 1) if d is None or d <= cut])
        _commit(self.ws, "MEMORY.md and DREAMS.md at the cut", cut)
        _tiergit(self.ws, "init", "--preset", "openclaw", day=cut)
        _commit(self.ws, "tiergit init", cut)
        _tiergit(self.ws, "import", "openclaw", "--apply", day=cut)
        _commit(self.ws, "tiergit: import openclaw", cut)
        self.openclaw("memory", "index", day=cut)
        return cut, older, days

    def search(self, day: date, query: str) -> int:
        out = self.openclaw("memory", "search", "--json", query, day=day).stdout
        try:
            hits = len(json.loads(out[out.index("{"):]).get("results", []))
        except ValueError:
            hits = -1
        self.searches.append((day, query, hits))
        return hits

    def store_entries(self) -> int:
        db = self.state / "state" / "openclaw.sqlite"
        if not db.is_file():
            return 0
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as con:
            return con.execute("SELECT count(*) FROM plugin_state_entries WHERE plugin_id = 'memory-core' "
                               "AND namespace = 'short-term-recall'").fetchone()[0]

    def locate(self, cand) -> tuple[str, int] | None:
        """The candidate's line in the corpus: a staged import item by its source note (the `##`
        heading above it) and its id; any other by the copied file's line map."""
        from tiergit.core import parse

        if cand.source == ".tiergit/candidates.md":
            lines = (self.ws / cand.source).read_text(encoding="utf-8").splitlines()
            source = next((ln[3:].strip() for ln in reversed(lines[:cand.line]) if ln.startswith("## ")), None)
            if source is None or source not in self.lines:
                return None
            corpus_rel = self.lines[source][0][0]
            doc = parse.parse((self.corpus / corpus_rel).read_text(encoding="utf-8", errors="replace"), source)
            want = cand.item_id or cand.id
            hit = next((it.line for s in doc.sections for it in s.items if it.id == want), None)
            return (corpus_rel, hit) if hit else None
        mapped = self.lines.get(cand.source)
        return mapped[cand.line - 1] if mapped and 0 < cand.line <= len(mapped) else None

    def ref(self, cand) -> str | None:
        at = self.locate(cand)
        if at is None:
            return None
        text = (self.corpus / at[0]).read_text(encoding="utf-8", errors="replace").splitlines()[at[1] - 1]
        out = f"{at[0]}\t{at[1]}\t{hashlib.sha256(text.encode('utf-8')).hexdigest()}"
        return out + (f"\ts{cand.sentence}" if cand.sentence else "")


def _promote(ws: Path, day: date, state: Path):
    from tiergit.features.promotion import promote
    from tiergit.shell.store import Store

    os.environ["TIERGIT_TODAY"], os.environ["OPENCLAW_STATE_DIR"] = day.isoformat(), str(state)
    return promote.build(Store.open(ws), today=day)


def run_workspace(corpus: Path, corpus_ws: Path, claw) -> dict:
    out: dict = {"name": corpus_ws.name.removeprefix("openclaw_")}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-openclaw-") as tmp:
        w = Workspace(corpus, corpus_ws, Path(tmp), claw)
        cut, older, days = w.build()
        later = [d for d in days if d > cut]
        out |= {"cut": cut, "older": len(older), "later": len(later)}
        out["none"] = _promote(w.ws, cut + timedelta(days=1), w.state)
        plan: list[tuple[date, str]] = []
        template: set[str] = set()
        with_queries = []
        for d in days:
            if d > cut:
                with_queries.append((d, queries_of(days[d], template)[:PER_DAY]))
            template |= {h.lower() for note in days[d] for h in headings(note)}
        with_queries = [(d, qs) for d, qs in with_queries if qs]
        per_day = max(1, PER_DAY)
        for d, qs in _evenly(with_queries, max(1, SEARCHES // per_day)):
            plan += [(d, q) for q in qs]
        plan = plan[:SEARCHES]
        proposed: dict[tuple[str, int, int], object] = {}
        firsts: list[str] = []
        search_days = sorted({d for d, _ in plan})
        for d in search_days:
            for q in (q for dd, q in plan if dd == d):
                w.search(d, q)
            night = d + timedelta(days=1)
            for r in _promote(w.ws, night, w.state).accepted:
                if (r.cand.source, r.cand.line, r.cand.sentence) not in proposed:
                    proposed[(r.cand.source, r.cand.line, r.cand.sentence)] = r
                    firsts.append(night.isoformat())
        last = (search_days[-1] if search_days else cut) + timedelta(days=1)
        out["last"] = promo = _promote(w.ws, last, w.state)
        for k in AFTER[1:]:
            for r in _promote(w.ws, last + timedelta(days=k - 1), w.state).accepted:
                proposed.setdefault((r.cand.source, r.cand.line, r.cand.sentence), r)
        out["proposed"] = list(proposed.values())
        out["first night"] = min(firsts) if firsts else None
        out["entries"] = w.store_entries()
        out["searches"] = w.searches
        out["refs"] = {id(r): w.ref(r.cand) for r in out["proposed"]}
        out["keep"] = [w.ref(r.cand) for r in promo.rows if r.cand.kind in DURABLE and not r.cand.sentence]
        out["lines"] = {}
        for r in out["proposed"]:
            ref = out["refs"][id(r)]
            if ref:
                p, ln = ref.split("\t")[:2]
                out["lines"][ref] = (corpus / p).read_text(encoding="utf-8", errors="replace").splitlines()[int(ln) - 1]
        # session end copies the store into the committed log; another state dir then counts the same recalls
        _tiergit(w.ws, "session", "start", "--task", "replayed use", day=last, OPENCLAW_STATE_DIR=str(w.state))
        _tiergit(w.ws, "session", "end", day=last, OPENCLAW_STATE_DIR=str(w.state))
        _commit(w.ws, "session end", last)
        from_log = _promote(w.ws, last, Path(tmp) / "another-state")
        out["recalls via log"] = sum(r.recalls for r in from_log.rows)
    out["seconds"] = time.monotonic() - started
    return out


def main() -> None:  # long: one row per workspace, then the failed checks and the blind view
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    ap.add_argument("--proposed", default=None, help="write each proposal by reference with its PR text and its "
                    "line (no verdict, no score): the blind view a reader labels")
    ap.add_argument("--labels", default=str(PROJECT / "tests" / "labels" / "promote_openclaw.tsv"))
    ap.add_argument("--only", default=None, help="these workspaces only (parts of their folder names, comma-separated)")
    ap.add_argument("--verbose", action="store_true", help="every recalled candidate's verdict the day after the last "
                    "search: what a reviewer reads to see why a workspace proposes nothing")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    claw = frameworks.install(frameworks.OPENCLAW)
    from tiergit.core.prtext import wiki_text

    labels = _read_labels(Path(args.labels))
    # proposals that appeared later, labelled blind as they appeared (round 8: daily-note lines OpenClaw recalled)
    labels.update(_read_labels(Path(args.labels).with_name("promote_round8.tsv")))
    # stop 50: the preference a `Preference/workflow:` label names
    labels.update(_read_labels(Path(args.labels).with_name("promote_stop50.tsv")))
    print(f"cut at {CUT:.0%} of each workspace's note days; {SEARCHES} searches per workspace "
          f"({PER_DAY} per day, days taken evenly); the openclaw preset's gate unchanged")
    print("workspace                         days before/after  searches  store entries  candidates  durable"
          "  recalled (recalls)  via log  proposed: no use  any night (first)  good/labelled   keep-everything good/labelled")
    blind: list[str] = []
    totals: Counter = Counter()
    for ws_dir in sorted(corpus.glob("openclaw_*")):
        if args.only and not any(part in ws_dir.name for part in args.only.split(",")):
            continue
        res = run_workspace(corpus, ws_dir, claw)
        promo = res["last"]
        recalled = [r for r in promo.rows if r.recalls]
        refs = [res["refs"][id(r)] for r in res["proposed"]]
        got, keep = _tally(refs, labels), _tally(res["keep"], labels)
        print(f"{res['name'][:33]:33} {res['older']:6}/{res['later']:<6}  {len(res['searches']):8}  {res['entries']:13}"
              f"  {len(promo.rows):10}  {sum(r.cand.kind in DURABLE for r in promo.rows):7}"
              f"  {len(recalled):8} ({sum(r.recalls for r in promo.rows):5})  {res['recalls via log']:7}"
              f"  {len(res['none'].accepted):16}  {len(res['proposed']):9} ({res['first night'] or '-'})"
              f"  {got[0]}/{got[1]:<10}  {len(res['keep'])} items, {keep[0]}/{keep[1]} labelled good")
        failed = Counter(r.verdict.failed for r in promo.rows)
        print(f"    the day after the last search ({promo.today}): failed checks {dict(failed.most_common())};"
              f" recalled candidates' failed checks {dict(Counter(r.verdict.failed for r in recalled).most_common())};"
              f" {res['seconds']:.0f} s")
        for d, q, hits in res["searches"]:
            print(f"    search {d}: {q!r} -> {hits} hits")
        for r in sorted(recalled, key=lambda r: -r.score.total) if args.verbose else ():
            print(f"    {'PROMOTE' if r.verdict.accepted else 'reject '} {r.score.total:.2f} {r.cand.kind:10} recalls "
                  f"{r.recalls:<3} diversity {r.score.signals['diversity'] * 5:.0f} {r.cand.source}:{r.cand.line}: "
                  f"{' '.join(r.cand.text.split())[:110]}\n"
                  f"             {r.verdict.reason[:140]}")
        totals.update({"workspaces": 1, "firing": bool(res["proposed"]), "proposed": len(res["proposed"]),
                       "good": got[0], "labelled": got[1], "keep": len(res["keep"]), "keep good": keep[0],
                       "keep labelled": keep[1]})
        for r in res["proposed"]:
            ref = res["refs"][id(r)]
            line = res["lines"].get(ref, "") if ref else ""
            blind.append(f"{ref or 'not located: ' + r.cand.source + ':' + str(r.cand.line)}\t{res['name']}\t"
                         f"{r.cand.kind}{', sentence ' + str(r.cand.sentence) + ' of the line' if r.cand.sentence else ''}"
                         f"\n    PR text: {wiki_text(r.cand.text, r.cand.kind)}\n    line:    {line.strip()}\n")
    print(f"workspaces where the gate proposes something: {totals['firing']} of {totals['workspaces']}; "
          f"proposed {totals['proposed']}, labelled good {totals['good']} of {totals['labelled']} labelled; "
          f"keep everything: {totals['keep']} durable candidates, {totals['keep good']} of {totals['keep labelled']} "
          "labelled good")
    if args.proposed:
        Path(args.proposed).write_text("# path\tline\tsha256\t[s<N>]\tworkspace\tkind; then the text the PR shows and "
                                       "the corpus line (no verdict, no score)\n" + "\n".join(blind), encoding="utf-8")
        print(f"{len(blind)} proposals written to {args.proposed}")


def _read_labels(path: Path) -> dict[str, str]:
    """"path\\tline\\tsha[\\ts<N>]" -> good/bad, from a label file with promote_real_new.tsv's columns (the
    sentence named in the kind column)."""
    out: dict[str, str] = {}
    if not path.is_file():
        return out
    for ln in path.read_text(encoding="utf-8").splitlines():
        if ln.strip() and not ln.startswith("#"):
            f = ln.split("\t")
            m = re.search(r"\bsentence (\d+)\b", f[4])
            out["\t".join(f[:3]) + (f"\ts{m[1]}" if m else "")] = f[6]
    return out


def _tally(refs: list[str | None], labels: dict[str, str]) -> tuple[int, int]:
    hits = [labels[r] for r in refs if r and r in labels]
    return sum(h == "good" for h in hits), len(hits)


if __name__ == "__main__":
    main()
