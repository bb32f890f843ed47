"""Promotion candidates: durable or recalled items in tiers whose `next` tier is reviewed,
plus items staged by agents (`propose`), dreaming (`DREAMS.md`) or `import squad`.

Reads files; everything it returns is plain data for the pure gate and plan.
"""
from __future__ import annotations

import hashlib
import pickle
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

from tiergit.core import dreams, judge, kinds, parse, rawtext
from tiergit.core.config import Tier
from tiergit.core.patterns import splice_managed
from tiergit.errors import TiergitError
from tiergit.features.promotion import openclaw_format

COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
FORCED_RE = re.compile(r"<!--\s*tiergit:forced\b([^>]*)-->")
ID_MENTION_RE = re.compile(r"(?<![\w-])\^?(m-[0-9a-f]{8})(?![\w-])")
KIND_TOPICS = {"decision": "decisions", "rule": "rules", "fact": "facts", "correction": "corrections"}
STOPWORDS = frozenset(
    "a an and are as at be been but by can do does for from has have if in into is it its of on or so "
    "that the their then there these this to was we were when which while will with you your our not "
    "always never should must use uses used before after every each all any".split())
WORD_RE = re.compile(r"[a-z0-9]+")
TAG_RE = re.compile(r"(?<![\w#&/])#([A-Za-z][\w-]{1,40})")


@dataclass
class Candidate:
    id: str
    text: str               # clean one-line text (no marker, kind prefix, block id or comments)
    raw: str                # the exact source text (metadata included: the gate reads it)
    kind: str
    source: str             # repo-relative path
    line: int
    entry: str | None       # heading of the section it came from
    age_day: date | None    # the day its age counts from
    target_tier: str
    topic: str
    forced: bool = False
    staged: bool = False
    tags: list[str] = field(default_factory=list)
    mention_key: str = ""
    dreamed: str = ""       # Dreaming vouched for it: "confidence 0.84" or "likely_durable"
    evidence: list[str] = field(default_factory=list)   # Dreaming's source refs, kept as provenance


@dataclass
class Corpus:
    """Everything promotion reads from the tree, gathered once."""
    candidates: list[Candidate]
    wiki: list[tuple[str, str, int, str, str]]     # (id, clean text, line, path, key) of reviewed-tier items
    wiki_ids: dict[str, str]                        # id -> path
    mentions: dict[str, int]                        # mention key or id -> sections mentioning it
    mention_days: dict[str, set[date]]


_STEMS: dict[str, str] = {}


def _stem(w: str) -> str:
    if w in STOPWORDS or (len(w) < 2 and not w.isdigit()):
        return ""  # digits stay: "2.x" and "3.x" are different facts
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def content_words(text: str) -> list[str]:
    """Lowercase content words, crudely stemmed: what near-duplicate matching compares."""
    stems = _STEMS
    out = []
    for w in WORD_RE.findall(text.lower()):
        st = stems.get(w)
        if st is None:
            st = stems[w] = _stem(w)
        if st:
            out.append(st)
    return out


def norm_key(text: str) -> str:
    return " ".join(content_words(text))


def clean(text: str) -> str:
    return parse.clean_text(COMMENT_RE.sub("", text)).strip()


def slug(value: str) -> str:
    s = re.sub(r"[^a-z0-9._-]+", "-", value.lower()).strip("-.")
    return s or "notes"


def topic_of(text: str, kind: str) -> str:
    tags = TAG_RE.findall(text)
    return slug(tags[0]) if tags else KIND_TOPICS.get(kind, "notes")


def reviewed_targets(tiers: dict[str, Tier]) -> dict[str, str]:
    """source tier name -> reviewed tier name it promotes into."""
    return {name: t.next for name, t in tiers.items()
            if t.next and t.next in tiers and tiers[t.next].reviewed}


def staging_paths(store) -> list[str]:
    """Repo-relative staging files: config.staging if set, else <root>/staging/*.md; plus
    OpenClaw's DREAMS.md when MEMORY.md is a tier."""
    cfg = store.config
    # OpenClaw's own Dreaming candidates (root DREAMS.md) are read as staging, never written.
    dreams = [d for d in openclaw_format.dreams_paths(cfg) if (store.repo / d).is_file()]
    if cfg.staging:
        rel = cfg.repo_path(cfg.staging)
        return ([rel] if (store.repo / rel).is_file() else []) + [d for d in dreams if d != rel]
    folder = store.root / "staging"
    if not folder.is_dir():
        return dreams
    return sorted(p.relative_to(store.repo).as_posix() for p in folder.glob("*.md") if p.is_file()) + dreams


def default_staging(store) -> str:
    cfg = store.config
    return cfg.repo_path(cfg.staging) if cfg.staging else cfg.repo_path("staging/proposed.md")


def strip_managed(text: str) -> str:
    """The staging text without tiergit's own candidate listing (it is output, not input)."""
    return splice_managed(text, None)


def _read(store, rel: str) -> str:
    data = store.read_bytes(rel)
    return rawtext.decode(data, rel, store.config.limits["max_file_bytes"])


def _file_day(store, rel: str) -> date:
    return datetime.fromtimestamp((store.repo / rel).stat().st_mtime, tz=timezone.utc).date()


class ParseCache:
    """Parsed documents by content hash, kept in the git dir between runs (like the token
    cache): markdown parsing is most of a promotion plan's time, and most files do not
    change between nightly runs. One SQLite row per document (`parse-cache-v3.sqlite`):
    a run unpickles only the documents it reads and writes only the new ones, and rows no
    file uses any more are dropped (no whole-store pickle rewritten when one file changes).
    A missing or unreadable cache is simply rebuilt."""

    # Cached docs carry item kinds: a new default vocabulary must not reuse them.
    VERSION = (3, kinds.CLASSIFIER_VERSION)

    def __init__(self, path: Path | None, labels: dict) -> None:
        self.path, self.labels = path, repr(sorted((k, tuple(v)) for k, v in (labels or {}).items()))
        self.stored: dict[str, bytes] = {}
        self.used: set[str] = set()
        self.new: dict[str, tuple] = {}
        self._keys: dict[int, list[tuple[str, str]]] = {}   # id(doc) -> each item's (clean, norm_key)
        if path is not None and path.is_file():
            try:
                db = sqlite3.connect(path, timeout=30)
                self.stored = dict(db.execute("SELECT key, doc FROM docs"))
                db.close()
            except sqlite3.DatabaseError:   # a stale or broken cache is only a slower run
                self.stored = {}

    @classmethod
    def for_store(cls, store) -> "ParseCache":
        from tiergit.shell import statedir

        try:
            folder = statedir.state_dir(store.repo)
        except TiergitError:
            return cls(None, store.config.labels)
        # Older caches: the whole-store pickle, and v2 whose pickles name the flat module paths
        # (tiergit.core.parse) that moved into tiergit.core.
        for old in ("parse-cache.pickle", "parse-cache-v2.sqlite"):
            (folder / old).unlink(missing_ok=True)
        return cls(folder / "parse-cache-v3.sqlite", store.config.labels)

    def parse(self, text: str, rel: str) -> parse.MemoryDoc:
        key = hashlib.sha1(f"{self.VERSION}\0{self.labels}\0{rel}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        self.used.add(key)
        entry = self.new.get(key)
        if entry is None and key in self.stored:
            try:
                entry = pickle.loads(self.stored[key])
            except Exception:  # noqa: BLE001 - a broken row is parsed again
                entry = None
        if entry is None:
            doc = parse.parse(text, rel, eval_labels(self.labels))
            # Each item's clean text and comparison key are half a warm plan's time: kept too.
            pairs = []
            for sec in doc.sections:
                for item in sec.items:
                    cleaned = clean(item.text)
                    pairs.append((cleaned, norm_key(cleaned)))
            entry = self.new[key] = (doc, pairs)
        self._keys[id(entry[0])] = entry[1]
        return entry[0]

    def item_keys(self, doc: parse.MemoryDoc) -> list[tuple[str, str]]:
        """(clean text, norm_key) of every item of a document this cache returned, in order."""
        return self._keys[id(doc)]

    def save(self) -> None:
        """Add the new documents and drop the ones this run did not use (best effort)."""
        stale = set(self.stored) - self.used
        if self.path is None or (not self.new and not stale):
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("CREATE TABLE IF NOT EXISTS docs (key TEXT PRIMARY KEY, doc BLOB NOT NULL)")
            db.execute("BEGIN IMMEDIATE")
            db.executemany("DELETE FROM docs WHERE key = ?", [(k,) for k in stale])
            db.executemany("INSERT OR REPLACE INTO docs VALUES (?, ?)",
                           [(k, pickle.dumps(d, pickle.HIGHEST_PROTOCOL)) for k, d in self.new.items()])
            db.execute("COMMIT")
            db.close()
        except (OSError, sqlite3.DatabaseError):
            pass


def eval_labels(frozen: str) -> dict[str, list[str]]:
    import ast

    return {k: list(v) for k, v in ast.literal_eval(frozen)}


def gather(store, recalled: set[str], blame: bool = True) -> Corpus:
    """Read every memory file once: candidates, the wiki index, and mentions. Undated items
    take their date from git blame, once per file version (`blame_cache`)."""
    cache = ParseCache.for_store(store)
    from tiergit.features.history import pathspecs
    from tiergit.shell.blame_cache import BlameCache

    blames = BlameCache.for_repo(store.repo, pathspecs(store.config))
    try:
        return _gather(store, recalled, blame, cache, blames)
    finally:
        blames.close()


def _gather(store, recalled: set[str], blame: bool, cache: ParseCache, blames) -> Corpus:
    cfg = store.config
    targets = reviewed_targets(cfg.tiers)
    reviewed = {n for n, t in cfg.tiers.items() if t.reviewed}
    default_target = next(iter(targets.values()), next(iter(sorted(reviewed)), None))
    candidates: list[Candidate] = []
    wiki: list[tuple[str, str, int, str, str]] = []
    wiki_ids: dict[str, str] = {}
    mentions: dict[str, set[tuple[str, int]]] = defaultdict(set)
    mention_days: dict[str, set[date]] = defaultdict(set)
    staged = set(staging_paths(store))
    min_confidence = float((cfg.gate or {}).get("min_confidence", dreams.MIN_CONFIDENCE))
    archived = archived_files(store)
    for rel in sorted(set(store.memory_files()) | staged | set(archived)):
        match = cfg.tier_for(archived.get(rel, rel))
        tier = match[0] if match else None
        try:
            text = _read(store, rel)
            if rel in staged:
                text = strip_managed(text)
            doc = cache.parse(text, rel)
        except TiergitError:
            continue  # `check` reports unreadable files; promotion skips them
        blame_days: dict[int, date] | None = None
        file_date = None
        if tier is not None and "{date}" in tier.path and match:
            file_date = parse.heading_date(match[1].get("date", ""))
        pairs = iter(cache.item_keys(doc))
        for sidx, sec in enumerate(doc.sections):
            for iid in set(ID_MENTION_RE.findall(sec.text)):
                mentions[iid].add((rel, sidx))
                if sec.date or file_date:
                    mention_days[iid].add(sec.date or file_date)  # type: ignore[arg-type]
            for item in sec.items:
                text, key = next(pairs)
                day = item.date or sec.date or file_date
                if key:
                    mentions[key].add((rel, sidx))
                    if day:
                        mention_days[key].add(day)
                if tier is not None and tier.name in reviewed:
                    wiki.append((item.id, text, item.line, rel, key))
                    wiki_ids.setdefault(item.id, rel)
                    continue
                is_staged = rel in staged
                target = targets.get(tier.name) if tier is not None else None
                if is_staged:
                    target = default_target
                if target is None:
                    continue
                forced = FORCED_RE.search(item.text)
                if not is_staged and not item.durable and item.id not in recalled:
                    continue
                kind = item.kind
                topic = topic_of(item.text, kind)
                if forced:
                    attrs = dict(re.findall(r"(\w+)=(\S+)", forced[1]))
                    kind = attrs.get("kind", kind if kind in kinds.DURABLE_KINDS else "rule")
                    topic = slug(attrs.get("topic", topic))
                    day = day or parse.heading_date(attrs.get("date", ""))
                dreamed, evidence = "", []
                if is_staged and not forced:
                    text, kind, dreamed, evidence = _dreamed(item.text, text, kind, min_confidence)
                    key = norm_key(text)
                if day is None and blame:
                    if blame_days is None:
                        blame_days = blames.dates(rel)
                    day = blame_days.get(item.line)
                if day is None and not is_staged:
                    day = _file_day(store, rel)
                candidates.append(Candidate(
                    id=item.id, text=text, raw=item.text, kind=kind, source=rel,
                    line=item.line, entry=sec.heading, age_day=day, target_tier=target, topic=topic,
                    forced=bool(forced), staged=is_staged, tags=TAG_RE.findall(item.text), mention_key=key,
                    dreamed=dreamed, evidence=evidence))
    cache.save()
    counts = {k: len(v) for k, v in mentions.items()}
    return Corpus(candidates=candidates, wiki=wiki, wiki_ids=wiki_ids, mentions=counts,
                  mention_days=dict(mention_days))


def _dreamed(raw: str, text: str, kind: str, min_confidence: float) -> tuple[str, str, str, list[str]]:
    """A staged item read as a Dreaming candidate: (clean text, kind, what vouched for it, evidence).
    Its kind is judged on the clean text; a vouched candidate in plain prose counts as a fact."""
    meta = dreams.read(raw)
    if not meta.present:
        return text, kind, "", []
    cleaned = dreams.clean(raw) or text
    kind = kinds.classify("- " + cleaned)
    # A light-sleep candidate opens with its daily note's section titles ("Memoria DB Backup: …"). A
    # title's word ("Ingest Architecture Decision: Background Jobs: CREATE TABLE …") does not make every
    # line under it durable: when the lines alone carry no kind, the candidate is context.
    body = dreams.untitled(cleaned) if dreams.PREFIX.match(raw) else cleaned
    if body != cleaned and kind in kinds.DURABLE_KINDS and kinds.classify("- " + body) == "context":
        kind = "context"
    vouched = dreams.vouched(meta, min_confidence, raw)
    # A note lifted from a dated session log is an event unless its wording makes it knowledge. Deep
    # sleep's `[likely_durable]` vouches for plain prose; a light-sleep candidate (a daily note's section
    # title and its lines joined) counts as a fact only when its lines read as a standing statement.
    if vouched and kind == "context" and not judge.junk(cleaned) and not judge.narrative(cleaned) \
            and not dreams.STAMPED.match(raw) and not judge.CONTEXT_LABEL.match("- " + cleaned) \
            and (meta.tag in ("likely_durable", "durable") or _states(cleaned, body)):
        kind = "fact"
    how = (f"confidence {meta.confidence:.2f}" if meta.confidence is not None else meta.tag or "") if vouched else ""
    return cleaned, kind, how, meta.evidence


def _states(cleaned: str, body: str) -> bool:
    """A light-sleep candidate's lines (after its section titles, `;`-joined) state standing facts:
    its first line does, and its titles do not file it as a report (`Result:`, `Plan / Next steps:`)."""
    from tiergit.core import statement

    titles = cleaned[: len(cleaned) - len(body)]
    if any(statement.REPORT_LABEL.search(t.strip()) for t in titles.split(":") if t.strip()):
        return False
    first = next((p.strip() for p in body.split("; ") if p.strip()), "")
    return bool(first) and statement.standing(first) is not None


def archived_files(store) -> dict[str, str]:
    """Archive files -> the tier path they came from (`archive/2026-04/cold/picard.md` ->
    `<root>/cold/picard.md`). Cold entries reach the archive at their TTL, often the age at
    which they become promotable, so archived items stay candidates until the archive
    month leaves the tree."""
    cfg = store.config
    base = store.repo / cfg.repo_path(cfg.archive)
    if not base.is_dir():
        return {}
    out = {}
    for path in sorted(base.glob("[0-9][0-9][0-9][0-9]-[0-9][0-9]/**/*.md")):
        inner = path.relative_to(base).as_posix().split("/", 1)[1]
        origin = cfg.repo_path(inner)
        match = cfg.tier_for(origin)
        # Only sources of promotion: what `audit` archived from a reviewed tier is dead context.
        if path.is_file() and match is not None and not match[0].reviewed:
            out[path.relative_to(store.repo).as_posix()] = origin
    return out


def target_path(store, cand: Candidate, _cache: dict | None = None) -> str:
    """Repo-relative file a candidate is promoted into."""
    tier = store.config.tiers[cand.target_tier]
    values = {"topic": cand.topic} if "{topic}" in tier.path else {}
    memo = (cand.target_tier, cand.topic if values else "")
    if _cache is not None and memo in _cache:
        return _cache[memo]
    path: Path = store.config.tier_file(cand.target_tier, **values)
    rel = path.relative_to(store.repo).as_posix()
    if _cache is not None:
        _cache[memo] = rel
    return rel
