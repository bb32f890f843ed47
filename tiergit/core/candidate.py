"""Promotion candidates as data: the Candidate and Corpus models, the text keys near-duplicate
matching compares, and `collect`, which turns already-parsed memory files into candidates, the
reviewed-tier index and mention counts. Pure: parsed documents and config in (features/promotion/
candidates.py reads the files, git blame and the parse cache)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from tiergit.core import kinds, parse
from tiergit.core.dreams import read_dreamed
from tiergit.core.config import Tier
from tiergit.core.dupindex import DupIndex
from tiergit.core.idpaths import IdPaths
from tiergit.core.mentions import MentionLog

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


@dataclass(slots=True)   # one per candidate: a 50k-file plan holds ~1M
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
    key_hash: int = 0       # hash() of its comparison key (`mention_key`), 0 when it has none
    dreamed: str = ""       # Dreaming vouched for it: "confidence 0.84" or "likely_durable"
    evidence: tuple[str, ...] | list[str] = ()   # Dreaming's source refs, kept as provenance
    sentence: int = 0       # 1-based: this candidate is that sentence of the item `item_id` (0: the item itself)
    item_id: str = ""
    item_raw: str = ""      # the whole item's source text, for a sentence candidate

    @property
    def mention_key(self) -> str:
        """Its text's comparison key (`norm_key`), made when asked: a plan asks for the few that reach
        the near-duplicate check, and holding every candidate's cost ~150 bytes each."""
        return norm_key(self.text)

    @property
    def whole(self) -> str:
        """The text the content checks that guard the PR read (credentials, injection, safeguards,
        Dreaming and score metadata): for one sentence of an item, the whole item."""
        return self.item_raw or self.raw


@dataclass
class Corpus:
    """Everything promotion reads from the tree, gathered once."""
    candidates: list[Candidate]
    wiki: DupIndex                                  # reviewed-tier items' keys, each at its path:line
    wiki_ids: IdPaths                               # id -> the first path it is in
    # Every item's key and every id a section holds, by hash (core/mentions.py): read through
    # mention_count() and mention_days(), after `mentions.settle(the candidates' names)`
    mentions: MentionLog
    # (list label id, path, entry heading) -> ids of the list under it: a label's id is its text's hash, and
    # "**Key Learnings:**" heads a list in many entries of one file
    under: dict[tuple[str, str, str | None], list[str]] = field(default_factory=dict)


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


def hash_of_key(key: str) -> int:
    """A mention key's hash, as candidates keep it (0: no key)."""
    return hash(key) if key else 0


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


@dataclass
class ParsedFile:
    """One memory file as promotion reads it: parsed, with each item's (clean text, norm_key)."""
    rel: str                  # repo-relative path
    tier: Tier | None         # the tier it belongs to (an archive file: the tier it came from)
    file_date: date | None    # the date in its name, for a `{date}` tier path
    doc: parse.MemoryDoc
    keys: list[tuple[str, str]]
    staged: bool


LABEL_END_RE = re.compile(r":[*_`\s]*$")


def lists_under(items: list[parse.Item]) -> dict[str, list[str]]:
    """A list label ("**Key patterns:**", "Lessons learned:") -> the ids of the list items written
    right under it (each on the line after the one before, each a list item). A recall that hits
    the label found that list: the agent reads the label's section, not the label alone."""
    out: dict[str, list[str]] = {}
    for n, label in enumerate(items):
        if "\n" in label.text.strip() or not LABEL_END_RE.search(label.text.strip()):
            continue
        end, kids = label.end_line, []
        for item in items[n + 1:]:
            if item.line != end + 1 or not kinds.LIST_MARKER_RE.match(item.text):
                break
            kids.append(item.id)
            end = item.end_line
        if kids:
            out[label.id] = kids
    return out


def collect(files: Iterable[ParsedFile], tiers: dict[str, Tier], recalled: set[str], min_confidence: float) -> Corpus:
    """Candidates, the reviewed-tier index and mention counts of parsed files (each file once). A
    candidate's age_day is None when neither the item, its entry, its file name nor a forced date
    gives one: the reader fills it in (git blame, else the file's time)."""
    targets = reviewed_targets(tiers)
    reviewed = {n for n, t in tiers.items() if t.reviewed}
    default_target = next(iter(targets.values()), next(iter(sorted(reviewed)), None))
    corpus = Corpus(candidates=[], wiki=DupIndex(), wiki_ids=IdPaths(), mentions=MentionLog())
    log = corpus.mentions

    def mention(text: str, day: date | None, here: set[int]) -> None:
        name = hash(text)
        if name not in here:   # `here`: the names this section has counted (a section counts once)
            here.add(name)
            log.add(name, day)

    for f in files:
        pairs = iter(f.keys)
        target = default_target if f.staged else targets.get(f.tier.name) if f.tier is not None else None
        for sec in f.doc.sections:
            here: set[int] = set()
            for iid in set(ID_MENTION_RE.findall(sec.text)) if "m-" in sec.text else ():   # most hold no id
                mention(iid, sec.date or f.file_date, here)
            under = {} if f.tier is not None and f.tier.name in reviewed else lists_under(sec.items)
            for label, kids in under.items():
                if label in recalled:   # only a recalled label's list is read (`section_events`)
                    corpus.under.setdefault((label, f.rel, sec.heading), []).extend(kids)
            # the items under a recalled label were recalled with it (scoring.section_events); a copy
            # of `recalled` per section would cost sections x recalled ids
            also = {kid for label, kids in under.items() if label in recalled for kid in kids}
            used = recalled | also if also else recalled
            for item in sec.items:
                text, key = next(pairs)
                day = item.date or sec.date or f.file_date
                if key:
                    mention(key, day, here)
                if f.tier is not None and f.tier.name in reviewed:
                    corpus.wiki.add_at(key, f.rel, item.line)
                    corpus.wiki_ids.setdefault(item.id, f.rel)
                elif target is not None and (f.staged or item.durable or item.id in used):
                    corpus.candidates.append(one(f, sec, item, text, key, day, target, min_confidence))
    corpus.wiki_ids.sort()   # now, while little else is held
    return corpus


def mention_count(corpus: Corpus, name: str | int) -> int:
    """How many sections mention `name` (an item's mention key or an id)."""
    return _settled(corpus).count(name)


def mention_days(corpus: Corpus, name: str | int) -> set[date]:
    """The days `name` was mentioned on."""
    return _settled(corpus).days_of(name)


def settle_mentions(corpus: Corpus, final: bool = False) -> None:
    """Count the candidates' names in one pass. `final`: no other name will be asked about, so the
    log's cells are let go (`MentionLog.forget_cells`)."""
    log = corpus.mentions
    log.settle(name for c in corpus.candidates for name in (c.key_hash, c.id) if name)
    if final:
        log.forget_cells()


def _settled(corpus: Corpus) -> MentionLog:
    """The mention log, its candidates' names counted in one pass at the first question (a name asked
    later, of a candidate added after it, is counted by a scan)."""
    if corpus.mentions.settled == set():   # nothing settled yet (None: settled, cells let go)
        settle_mentions(corpus)
    return corpus.mentions


def one(f: ParsedFile, sec: parse.Section, item: parse.Item, text: str, key: str, day: date | None,
               target: str, min_confidence: float) -> Candidate:
    """One item as a candidate: a `tiergit:forced` comment sets its kind, topic and date; a
    staged item is read as a Dreaming candidate."""
    forced = FORCED_RE.search(item.text)
    kind = item.kind
    topic = topic_of(item.text, kind)
    if forced:
        attrs = dict(re.findall(r"(\w+)=(\S+)", forced[1]))
        kind = attrs.get("kind", kind if kind in kinds.DURABLE_KINDS else "rule")
        topic = slug(attrs.get("topic", topic))
        day = day or parse.heading_date(attrs.get("date", ""))
    dreamed, evidence = "", ()
    if f.staged and not forced:
        text, kind, dreamed, found = read_dreamed(item.text, text, kind, min_confidence)
        key, evidence = norm_key(text), tuple(found)
    return Candidate(
        id=item.id, text=text, raw=item.text, kind=kind, source=f.rel,
        line=item.line, entry=sec.heading, age_day=day, target_tier=target, topic=topic,
        forced=bool(forced), staged=f.staged, key_hash=hash_of_key(key),
        dreamed=dreamed, evidence=evidence)


def sentence_candidate(c: Candidate) -> Candidate | None:
    """A recalled tier item of kind context that does not read as a standing statement as a whole, as
    its standing sentence (`standing_sentence.pick`): that sentence is what the PR shows, the item its
    provenance (same source line, entry, age and, through `item_id`, recalls). None for every other
    candidate: staged, forced and Dreaming items were judged when they were staged."""
    from tiergit.core import standing_sentence, statement

    if c.kind != "context" or c.staged or c.forced or c.dreamed or c.sentence or statement.standing(c.text):
        return None
    picked = standing_sentence.pick(c.raw)
    if picked is None:
        return None
    return Candidate(
        id=parse.item_id(picked.text)[0], text=picked.text, raw=picked.text, kind=picked.kind, source=c.source,
        line=c.line, entry=c.entry, age_day=c.age_day, target_tier=c.target_tier, topic=topic_of(picked.text, picked.kind),
        key_hash=hash_of_key(norm_key(picked.text)), sentence=picked.index, item_id=c.id,
        item_raw=c.raw)
