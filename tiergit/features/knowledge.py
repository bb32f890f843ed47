"""Task-aware spawn: what the task will need from cold, the wiki and the archive, packed per token.

`plan()` gathers candidates from the recall index: recall's hits for the task, its hits for
the names (identifiers, paths) the hot file mentions (decisions, blockers, last actions), and
the agent's own newest items (the last session predicts the next one). tiergit/core/knowledge_pack.py
values each by relevance, recency (imported items dated by the commits that wrote them,
tiergit/features/knowledge_age.py), names and kind, and fills the budget greedily by marginal
value per token (long items segment by segment), no text or name twice and nothing hot shows.
There is no all-or-nothing threshold: when the task matches little, the block says so and
carries the agent's newest items. `render()` groups the picks by entry, each item with its
id, so the agent can `tiergit recall` for more. The wiki adds a one-line-per-topic index.

Settings (`.tiergit.yml`, all optional):
    spawn: {knowledge_tokens: 1000, min_score: 0.0, min_relevance: 0.0, max_items: 40}
knowledge_tokens defaults to the seeds' 2–4 KB hot guidance (4 KB ~ 1000 tokens); min_score
and min_relevance keep only recall hits above them (off by default).
Cost: two recall queries over the index (refreshed incrementally), one rowid-range read of
the agent's own items, and a token count per candidate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tiergit.core import knowledge_pack
from tiergit.core.knowledge_pack import Candidate as Pick
from tiergit.errors import TiergitError
from tiergit.features.tierfiles import agent_files, read_text, tier_groups
from tiergit.shell.tokens import count_text, estimate

DEFAULTS = {"knowledge_tokens": 1000, "min_score": 0.0, "min_relevance": 0.0, "max_items": 40}
CANDIDATES = 60                 # recall hits looked at for the task
NAME_HITS = 20                  # recall hits looked at for the names hot mentions
HOT_NAMES = 12                  # names from hot searched for (each is a recall term)
NAME_HIT_WEIGHT = 0.6           # a hit for hot's names counts this much of a hit for the task
OWN_NEWEST = 120                # the agent's newest items looked at
INDEX_LINE_CHARS = 100
WIKI_INDEX_MAX = 20             # wiki topics the closing lists (the task's first)
MORE_ENTRIES = 6                # entries the closing names as more in memory
RECALL_HINT = ("Recall before you change a file the memory mentions, when a test fails, or when a name is "
               "unfamiliar: `tiergit recall \"words\" --agent {agent}` (`--full` for whole items).")
DATE_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?Z?)?\b")
SHARED_TIERS = ("archive",)     # recall's extra sources spawn reads (staging is unreviewed: left out)


@dataclass
class Knowledge:
    picks: list[Pick] = field(default_factory=list)
    wiki_index: list[str] = field(default_factory=list)   # "- topic — first line (path)"
    tokens: int = 0
    budget: int = 0
    dropped: int = 0          # relevant items left out by the budget
    low_relevance: bool = False   # the task matched little: the block is mostly the newest items
    more: list[str] = field(default_factory=list)   # entries of valued items the budget left out, best first
    names: list[str] = field(default_factory=list)  # names the agent's memory keeps using, not in the prompt
    notes: list[str] = field(default_factory=list)


def settings(config) -> dict:
    """The `spawn:` block merged over DEFAULTS; a bad value names the key and the fix."""
    raw = config.data.get("spawn") or {}
    if not isinstance(raw, dict):
        raise TiergitError(f"{config.path.name}: spawn: must be a mapping",
                           "example: spawn: {knowledge_tokens: 1000, min_score: 0.3}")
    unknown = sorted(set(raw) - set(DEFAULTS) - {"escalation", "recent_actions", "stale"})   # spawn_template's; stale
    if unknown:
        raise TiergitError(f"{config.path.name}: spawn.{unknown[0]}: unknown key",
                           f"known: {', '.join(DEFAULTS)}")
    if raw.get("stale", "omit") not in ("omit", "mark"):
        raise TiergitError(f"{config.path.name}: spawn.stale: must be omit or mark (got {raw['stale']!r})",
                           "example: spawn: {stale: mark}")
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


def wiki_index(store, topics: dict[str, str], read, first: list[str] = ()) -> list[str]:
    """One line per wiki topic (name, first heading or line, path): the `first` ones (the task's), then the
    rest by name, at most WIKI_INDEX_MAX lines and one more counting what was left out."""
    ordered = list(dict.fromkeys([t for t in first if t in topics] + sorted(topics)))
    lines = []
    for topic in ordered[:WIKI_INDEX_MAX]:
        head = ""
        for line in read(topics[topic]).splitlines():
            line = line.strip().lstrip("#").strip()
            if line and not line.startswith(("---", "<!--")):
                head = line
                break
        if len(head) > INDEX_LINE_CHARS:
            head = head[: INDEX_LINE_CHARS - 1] + "…"
        lines.append(f"- `{topic}` — {head or '(empty)'} ({topics[topic]})")
    if len(ordered) > WIKI_INDEX_MAX:
        lines.append(f"- … and {len(ordered) - WIKI_INDEX_MAX} more topics (`tiergit recall` searches them all)")
    return lines


def plan(store, agent: str | None, task: str | None, *, topics: dict[str, str], read,
         skip_paths: set[str] = frozenset(), hot: str = "") -> Knowledge:
    """The knowledge block for this spawn (nothing without a task or a budget)."""
    cfg = settings(store.config)
    out = Knowledge(budget=cfg["knowledge_tokens"])
    if not task or not task.strip() or cfg["knowledge_tokens"] == 0:
        out.wiki_index = wiki_index(store, topics, read)
        return out
    enc = store.config.tokenizer

    def count(text: str) -> int:
        return count_text(text, enc).tokens

    task = DATE_RE.sub(" ", task).strip() or task     # a session title's date matches every entry of that day
    candidates, best_score, own_texts = gather(store, agent, task, hot, cfg, set(skip_paths))
    from tiergit.features import staleness

    candidates = staleness.for_spawn(store, candidates, out.notes)
    wanted = knowledge_pack.names(task + "\n" + hot)
    by_path = {path: topic for topic, path in topics.items()}
    out.wiki_index = wiki_index(store, topics, read, [by_path[c.path] for c in sorted(
        candidates, key=lambda c: -c.relevance) if c.path in by_path])
    # packing estimates tokens (4 characters each); the block itself is counted exactly below
    picks, _used, out.dropped = knowledge_pack.pack(candidates, cfg["knowledge_tokens"], cfg["max_items"], estimate,
                                                    query=task, wanted_names=wanted, already=hot,
                                                    overhead=lambda c: 2)
    out.low_relevance = best_score < knowledge_pack.LOW_RELEVANCE
    budget = cfg["knowledge_tokens"]
    while picks and (estimate(render_items(picks, out.low_relevance, intro=False)) > budget
                     or count(render_items(picks, out.low_relevance, intro=False)) > budget):
        # the entry headers did not fit: the pick worth least per token goes, as the packing measures worth
        picks.remove(min(picks, key=knowledge_pack.per_token))
        out.dropped += 1
    out.picks = picks
    out.tokens = count(render_items(picks, out.low_relevance, intro=False)) if picks else 0
    shown = {p.entry for p in picks}
    left = sorted((c for c in candidates if c.value > 0 and c not in picks and c.entry not in shown),
                  key=lambda c: -c.value)
    out.more = list(dict.fromkeys(c.entry for c in left if c.entry))[:MORE_ENTRIES]
    out.names = knowledge_pack.name_index(own_texts, "\n".join([task, hot, render_items(picks, False), *out.more]),
                                          knowledge_pack.NAMES_CHARS)
    if out.dropped:
        out.notes.append(f"knowledge: {len(picks)} item(s), {out.tokens} tokens; {out.dropped} more relevant "
                         f"item(s) over the {out.budget}-token budget (`tiergit recall` finds them)")
    if not picks:
        out.notes.append("knowledge: nothing in your history, the wiki or the archive to add "
                         "(cold loaded whole, or no items yet)" if skip_paths else
                         "knowledge: nothing in your history, the wiki or the archive to add (no items yet)")
    elif out.low_relevance:
        out.notes.append("knowledge: the task matched little in memory; the block is mostly your newest items")
    return out


def gather(store, agent: str | None, task: str, hot: str, cfg: dict,
           skip_paths: set[str]) -> tuple[list[Pick], float, list[tuple[str, str]]]:
    """(candidates, the best hit's share of the task's words, the agent's newest items as (entry, text)):
    recall's hits for the task and for hot's names, and the agent's newest items, each once, with its
    relevance and recency."""
    from tiergit.features import recall, recall_index, recall_scope

    tiers = source_tiers(store.config)
    db = recall_index.connect(recall_index.index_path(store.repo))
    try:
        recall_index.refresh(store, db)
        skip = recall_scope.skip_ranges(db, tiers, agent)   # the tier and agent tests, as rowid ranges
        hits = _search(recall, db, task, tiers, skip, CANDIDATES, runs=True)
        hot_words = recall_scope.rarest(db, knowledge_pack.names(hot) - knowledge_pack.names(task), HOT_NAMES)
        name_hits = _search(recall, db, " ".join(hot_words), tiers, skip, NAME_HITS, runs=False) if hot_words else []
        own = _own_items(db, agent, tiers) if agent else []
        from tiergit.features import recall_kinds   # kinds a large build left unjudged

        judged = recall_kinds.fill(db, [h.path for h in hits + name_hits if not h.kind]
                                   + [r[1] for _t, rows in own for r in rows if not r[4]], *recall_kinds.reading(store))
    finally:
        db.close()
    found: dict[str, Pick] = {}
    for weight, group in ((1.0, hits), (NAME_HIT_WEIGHT, name_hits)):
        for h in group:
            if h.path in skip_paths or h.score < cfg["min_score"] or h.relevance < cfg["min_relevance"]:
                continue
            kind = h.kind or judged.get((h.path, h.line), h.kind)
            c = found.setdefault(h.id, Pick(h.id, h.path, h.line, h.tier, h.entry, kind, (h.raw or h.text).strip(),
                                            score=h.score, date=h.date))
            # recall's relevance is relative to its best hit: scaled by the share of the task's words
            # the item holds, a weak best match (one common word) does not count as a strong one
            c.relevance = max(c.relevance, weight * h.relevance * h.score ** 0.5)
    from tiergit.features import knowledge_age

    when = knowledge_age.item_times(store, agent, [(r[0], r[7]) for _t, rows in own for r in rows]) if agent else {}
    ages = knowledge_pack.recency_weights(knowledge_pack.newest_first(
        [(tier, [(r[0], r[3]) for r in rows]) for tier, rows in own], when))
    for _tier, rows in own:
        for item_id, path, entry, day, kind, tier, line, raw in rows:
            if path in skip_paths or ages.get(item_id, 0) < 0.01:
                continue
            kind = kind or judged.get((path, int(line)), kind)
            c = found.setdefault(item_id, Pick(item_id, path, int(line), tier, entry or "", kind, raw.strip(),
                                               date=day))
            c.recency = ages[item_id]
    own_texts = [(f"{path}#{entry}", raw) for _tier, rows in own for _i, path, entry, _d, _k, _t, _l, raw in rows
                 if path not in skip_paths]
    return list(found.values()), max((h.score for h in hits), default=0.0), own_texts


def _search(recall, db, query: str, tiers: list[str], skip: list[tuple[int, int]], limit: int, runs: bool) -> list:
    try:
        return recall.search(db, query, tiers, limit=limit, skip=skip, runs=runs, snippets=False, dates=False)
    except TiergitError:    # a task with no searchable words brings no hits
        return []


def _own_items(db, agent: str, tiers: list[str]) -> list[tuple[str, list[tuple]]]:
    """Each of the agent's indexed files in the spawn's tiers: (tier, its items in line order), read by
    rowid range (a file's items sit at first_rowid .. first_rowid + items - 1)."""
    out = []
    files = db.execute("SELECT tier, first_rowid, items FROM files WHERE agent = ? AND items > 0", (agent,))
    for tier, first, n in files.fetchall():
        if tier not in tiers:
            continue
        rows = db.execute("SELECT item_id, path, entry, date, kind, tier, line, text FROM items "
                          "WHERE rowid >= ? AND rowid < ? ORDER BY rowid", (first, first + n)).fetchall()
        out.append((tier, rows[-OWN_NEWEST:] if rows else rows))
    return out


def render_items(picks: list[Pick], low: bool, intro: bool = True) -> str:
    """The picks grouped under their entry (best entry first, items in file order, path:line of the
    first); the intro lines (not counted in the budget) say how they were chosen."""
    lines = []
    if intro:
        lines += ["### Relevant knowledge\n",
                  "From your history, the wiki and the archive, by relevance to the task, recency and kind; "
                  "… marks a cut item (`tiergit recall \"words\" --full` for the rest):\n"]
        if low:
            lines.append("(The task matched little in memory: these are mostly your newest items.)\n")
    groups: dict[tuple[str, str], list[Pick]] = {}
    for p in picks:
        groups.setdefault((p.path, p.entry), []).append(p)
    for (path, entry), items in groups.items():
        items.sort(key=lambda p: p.line)
        lines.append(f"**{entry or '(no heading)'}** · {path}:{items[0].line}")
        for p in items:
            body = p.text.strip()
            body = body[2:] if body[:2] in ("- ", "* ", "+ ") else body
            lines.append(f"- {body}{' …' if p.cut and not body.endswith('…') else ''}")
        lines.append("")
    return "\n".join(lines)


def render(k: Knowledge) -> str:
    """The prompt block: the picked items (the wiki's topic index goes in the closing)."""
    return render_items(k.picks, k.low_relevance) if k.picks else ""


def closing(k: Knowledge, agent: str) -> str:
    """The prompt's last section: what else memory holds (the wiki's topics, the entries the budget left
    out) and the one-line hint of when to recall."""
    lines = ["## Recall\n"]
    if k.wiki_index:
        lines += ["Topics in the team wiki (`tiergit context --include-wiki TOPIC` loads one):\n",
                  "\n".join(k.wiki_index) + "\n"]
    if k.more:
        lines.append("More in memory, left out by the budget: " + "; ".join(k.more) + ".\n")
    if k.names:
        lines.append("Names your memory keeps using (`tiergit recall NAME` for what it holds on one): "
                     + ", ".join(f"`{n}`" for n in k.names) + ".\n")
    lines.append(RECALL_HINT.format(agent=agent))
    return "\n".join(lines) + "\n"


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
