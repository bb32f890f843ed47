"""Task-aware spawn: the items most relevant to the task, from cold, the wiki and the archive.

`plan()` is pure given the index: it runs the recall engine on the task, keeps
hits above two cut-offs (share of the task's words the item holds, and its
relevance next to the best hit) so an unrelated task brings nothing, and packs
whole items, best first, into the spawn's knowledge budget. `render()` turns the
plan into the prompt block, each item with its id and path:line so the agent can
`tiergit recall` for more. The wiki adds a one-line-per-topic index either way.

Settings (`.tiergit.yml`, all optional):
    spawn: {knowledge_tokens: 1000, min_score: 0.2, min_relevance: 0.0, max_items: 12}
knowledge_tokens defaults to the seeds' 2–4 KB hot guidance (4 KB ~ 1000 tokens).
Cost: one recall query over the index (refreshed incrementally), plus a token
count per picked item.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tiergit.errors import TiergitError
from tiergit.features.tierfiles import agent_files, read_text, tier_groups
from tiergit.shell.tokens import count_text

DEFAULTS = {"knowledge_tokens": 1000, "min_score": 0.2, "min_relevance": 0.0, "max_items": 12}
CANDIDATES = 40                 # recall hits looked at before the cut-offs
INDEX_LINE_CHARS = 100
SHARED_TIERS = ("archive",)     # recall's extra sources spawn reads (staging is unreviewed: left out)


@dataclass
class Pick:
    id: str
    path: str
    line: int
    tier: str
    entry: str
    text: str
    tokens: int
    score: float
    relevance: float


@dataclass
class Knowledge:
    picks: list[Pick] = field(default_factory=list)
    wiki_index: list[str] = field(default_factory=list)   # "- topic — first line (path)"
    tokens: int = 0
    budget: int = 0
    dropped: int = 0          # relevant items left out by the budget
    notes: list[str] = field(default_factory=list)


def settings(config) -> dict:
    """The `spawn:` block merged over DEFAULTS; a bad value names the key and the fix."""
    raw = config.data.get("spawn") or {}
    if not isinstance(raw, dict):
        raise TiergitError(f"{config.path.name}: spawn: must be a mapping",
                           "example: spawn: {knowledge_tokens: 1000, min_score: 0.3}")
    unknown = sorted(set(raw) - set(DEFAULTS) - {"escalation", "recent_actions"})   # spawn_template's keys
    if unknown:
        raise TiergitError(f"{config.path.name}: spawn.{unknown[0]}: unknown key",
                           f"known: {', '.join(DEFAULTS)}")
    out = {**DEFAULTS, **{k: v for k, v in raw.items() if k in DEFAULTS}}
    for key, value in out.items():
        integer = key in ("knowledge_tokens", "max_items")
        bad = isinstance(value, bool) or not isinstance(value, int if integer else (int, float)) or value < 0
        if bad or (not integer and value > 1):
            want = "a whole number >= 0" if integer else "a number from 0 to 1"
            raise TiergitError(f"{config.path.name}: spawn.{key}: must be {want} (got {value!r})",
                               f"example: spawn: {{{key}: {DEFAULTS[key]}}}")
    return out


def source_tiers(config) -> list[str]:
    """Tiers a spawn searches: every on-demand or selective tier (not hot), and the archive."""
    names = [n for n, t in config.tiers.items() if t.load in ("on-demand", "selective") and t.lifetime != "session"]
    return names + list(SHARED_TIERS)


def select(hits, cfg: dict, count, skip_paths: set[str]) -> tuple[list[Pick], int, int]:
    """(picks, tokens, dropped): hits over the cut-offs, whole, best first, within the budget.

    Pure: `count(text) -> tokens` is passed in so tests and the benchmark share it.
    """
    picks: list[Pick] = []
    used = dropped = 0
    seen_text: set[str] = set()
    for h in hits:
        if h.score < cfg["min_score"] or h.relevance < cfg["min_relevance"] or h.path in skip_paths:
            continue
        key = re.sub(r"\W+", " ", h.text).strip().lower()
        if key in seen_text:        # the same item copied into cold and the archive: once is enough
            continue
        seen_text.add(key)
        text = (h.raw or h.text).strip()
        pick = Pick(h.id, h.path, h.line, h.tier, h.entry, text, 0, h.score, h.relevance)
        tokens = count(chunk(pick))     # the budget covers what the prompt holds: header line and item
        if used + tokens > cfg["knowledge_tokens"] or len(picks) >= cfg["max_items"]:
            dropped += 1
            continue
        pick.tokens = tokens
        picks.append(pick)
        used += tokens
    return picks, used, dropped


def wiki_index(store, topics: dict[str, str], read) -> list[str]:
    """One line per wiki topic: its name, its first heading or line, its path."""
    lines = []
    for topic in sorted(topics):
        first = ""
        for line in read(topics[topic]).splitlines():
            line = line.strip().lstrip("#").strip()
            if line and not line.startswith(("---", "<!--")):
                first = line
                break
        if len(first) > INDEX_LINE_CHARS:
            first = first[: INDEX_LINE_CHARS - 1] + "…"
        lines.append(f"- `{topic}` — {first or '(empty)'} ({topics[topic]})")
    return lines


def plan(store, agent: str | None, task: str | None, *, topics: dict[str, str], read,
         skip_paths: set[str] = frozenset()) -> Knowledge:
    """The knowledge block for this spawn (nothing when there is no task or nothing relevant)."""
    cfg = settings(store.config)
    out = Knowledge(budget=cfg["knowledge_tokens"], wiki_index=wiki_index(store, topics, read))
    if not task or not task.strip() or cfg["knowledge_tokens"] == 0:
        return out
    from tiergit.features import recall, recall_index

    db = recall_index.connect(recall_index.index_path(store.repo))
    try:
        recall_index.refresh(store, db)
        try:
            hits = recall.search(db, task, source_tiers(store.config), agent, limit=CANDIDATES)
        except TiergitError:    # a task with no searchable words brings nothing
            hits = []
    finally:
        db.close()
    enc = store.config.tokenizer
    out.picks, out.tokens, out.dropped = select(hits, cfg, lambda t: count_text(t, enc).tokens, set(skip_paths))
    if out.dropped:
        out.notes.append(f"knowledge: {len(out.picks)} item(s), {out.tokens} tokens; {out.dropped} more relevant "
                         f"item(s) over the {out.budget}-token budget (`tiergit recall` finds them)")
    elif not out.picks:
        out.notes.append("knowledge: nothing in cold, wiki or archive is relevant to the task")
    return out


def chunk(p: Pick) -> str:
    """One item as the prompt shows it: id, path:line and entry on a line, then the item whole."""
    where = f"{p.path}:{p.line}" + (f" · {p.entry}" if p.entry else "")
    return f"**{p.id}** · {where}\n{p.text}\n"


def render(k: Knowledge) -> str:
    """The prompt block: relevant items whole (id, path:line, entry), then the wiki's topic index."""
    chunks = []
    if k.picks:
        chunks.append("### Relevant knowledge\n")
        chunks.append("Items from your history and the team's wiki that match the task, best first "
                      "(`tiergit recall \"words\"` for more):\n")
        chunks.extend(chunk(p) for p in k.picks)
    if k.wiki_index:
        chunks.append("### Topics in the team wiki\n")
        chunks.append("Reviewed team knowledge; load one with `tiergit context --include-wiki TOPIC`:\n")
        chunks.append("\n".join(k.wiki_index) + "\n")
    return "\n".join(chunks)


def default_task(store, agent: str, hot_text: str | None) -> tuple[str | None, str]:
    """(task, where it came from) for a spawn without --task: the hot file's Current task, else the
    heading of the agent's newest cold entry (what it worked on last), else none."""
    if hot_text:
        return hot_text, "hot Current task"
    from tiergit.core import parse

    newest = None
    for rel, _tier in agent_files(store, agent, tier_groups(store.config)["cold"]):
        try:
            doc = parse.parse(read_text(store, rel), rel, store.config.labels, with_items=False)
        except TiergitError:
            continue
        for sec in doc.sections:
            if sec.heading and sec.date and (newest is None or sec.date >= newest[0]):
                newest = (sec.date, sec.heading.strip())
    return (newest[1], "newest cold entry") if newest else (None, "none")
