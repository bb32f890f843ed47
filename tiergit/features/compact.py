"""Compaction of session notes: keep what must survive, condense context, drop logs.

Deterministic and offline by default; condensed lines are budgeted in tokens of the
configured encoding (shell/tokens.py). A user's summarizer command (shell/summarizer.py)
may replace the condensed part; whatever it returns, `ensure_kept` re-adds every item that
must survive verbatim (DESIGN rule 2), so a summarizer can only add, never lose. How notes
are read item by item (cold form, summary sentences, what cold already tells) is
core/sessiontext.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tiergit.core import dreams, sentence_judge
from tiergit.core.config import CompactSettings
from tiergit.core.kinds import LIST_MARKER_RE
from tiergit.core.parse import Item, MemoryDoc, clean_text, item_id
from tiergit.core.sessiontext import (
    KEEP_KINDS,
    already_told,
    cold_form,
    first_sentence,
    fold_words,
    own_text,
    section_key,
    section_label,
    sub_headings,
    summary_sentence,
    told_fragments,
    words,
)
from tiergit.shell.tokens import count_text

# Condensed lines are budgeted in tokens of the configured encoding.
FLOOR_WORDS = 6             # words of a condensed line whose label does not name a topic
MAX_LINE_TOKENS = 60
WORD = re.compile(r"[^\W_]+")
ENTRY_OVERHEAD_TOKENS = 30  # the entry heading and its session marker, when the caller does not say
# Hot-template and catch-all sections: as a label they do not say what the work was.
GENERIC_SECTIONS = {"current task", "active decisions", "last actions", "blockers", "talking to", "notes",
                    "learnings", "context", "core context", "summary", "session notes", "scribe notes"}


@dataclass
class Compaction:
    kept: list[str] = field(default_factory=list)        # verbatim item texts, as written to cold
    kept_ids: list[str] = field(default_factory=list)
    condensed: list[str] = field(default_factory=list)   # one summary line per notes section
    condensed_items: int = 0                              # context items folded into those lines
    dropped: int = 0                                      # log items and duplicates of the session
    duplicates: int = 0                                   # kept items already in cold
    notes: list[str] = field(default_factory=list)
    kept_words: str = field(default="", repr=False)   # word_run of each text kept under this heading
    # A sub-heading that names something (`### REC-5: `helix_status` — exit codes`), shown in bold before the
    # first item kept under it (keyed by that item's place in `kept`): kept items keep what they are about.
    headings: dict[int, str] = field(default_factory=dict)

    def keep(self, text: str, item_id: str) -> None:
        self.kept.append(text)
        self.kept_ids.append(item_id)
        self.kept_words += "|" + word_run(text)

    def body(self) -> str:
        """The entry body: kept items verbatim (each sub-heading shown before its first), then the condensed context."""
        blocks: list[str] = []
        shown = [t for n, k in enumerate(self.kept) for t in ((self.headings[n], k) if n in self.headings else (k,))]
        for text in shown + self.condensed:
            if blocks and _is_list_item(blocks[-1]) and _is_list_item(text):
                blocks[-1] += "\n" + text
            else:
                blocks.append(text)
        return "\n\n".join(blocks)


def _is_list_item(text: str) -> bool:
    last = text.rsplit("\n\n", 1)[-1]
    return bool(LIST_MARKER_RE.match(last))


@dataclass
class Group:
    label: str            # "" under the heading the entry is titled after
    items: list[Item]
    summary: list[str]    # the summary's words: first sentences of the items, `; `-joined

    def line(self, n_words: int) -> str:
        if n_words == 0:
            return f"- {self.label}"
        body = " ".join(self.summary[:n_words])
        if n_words < len(self.summary):
            body = body.rstrip(",;:") + " …"
        return f"- {self.label}: {body}" if self.label else f"- {body}"


def _tokens(text: str, encoding: str) -> int:
    return count_text(text + "\n", encoding).tokens


def _condense(groups: list[Group], budget: float, encoding: str) -> dict[int, int]:
    """Words per chosen group line (index -> word count) within `budget` tokens.

    The largest group always gets a line (the entry says what the work was): its label alone
    when that names a topic, else the label and its first FLOOR_WORDS words. Then, largest
    first, each group that fits gets such a line; whatever budget is left lengthens the
    chosen lines, word by word, up to MAX_LINE_TOKENS each.
    """
    order = sorted(range(len(groups)), key=lambda k: -sum(words(i.text) for i in groups[k].items))
    chosen: dict[int, int] = {}
    for k in order:
        group = groups[k]
        start = 0 if _names_a_topic(group.label) else min(FLOOR_WORDS, len(group.summary))
        cost = _tokens(group.line(start), encoding)
        if chosen and cost > budget:
            break
        chosen[k] = start
        budget -= cost
    lines = [k for k in order if k in chosen]
    for left, k in enumerate(lines):
        group, n = groups[k], chosen[k]
        base = _tokens(group.line(n), encoding)
        share = budget / (len(lines) - left)   # what an earlier line leaves goes to the next
        lo, hi = n, len(group.summary)
        while lo < hi:   # the most words whose line costs at most `share` more (and at most the cap)
            mid = (lo + hi + 1) // 2
            cost = _tokens(group.line(mid), encoding)
            if cost - base <= share and cost <= MAX_LINE_TOKENS:
                lo = mid
            else:
                hi = mid - 1
        budget -= _tokens(group.line(lo), encoding) - base
        chosen[k] = lo
    return chosen


def _names_a_topic(label: str) -> bool:
    """A sub-heading such as `Git Rebase for Doc Merges` says what the work was by itself;
    a template section (`Last actions`, `Notes`) or a one-word heading does not."""
    return len(label.split()) >= 2 and section_key(label) not in GENERIC_SECTIONS


def compact_doc(doc: MemoryDoc, cold_ids: set[str], ratio: float = CompactSettings.ratio,
                labels: dict | None = None, skip_lines: frozenset[int] = frozenset(),
                cold_text: str = "", title: str = "", overhead: int = ENTRY_OVERHEAD_TOKENS,
                encoding: str = "cl100k_base", boilerplate: frozenset[str] = frozenset()) -> Compaction:
    """Deterministic compaction of a notes document (pure).

    Items of KEEP_KINDS are kept verbatim unless cold already has their id; log items (fences,
    tool output, transcript lines) are dropped; context is condensed into one line per heading,
    sized so the whole entry (`overhead`: its heading and marker, in tokens) stays near `ratio`
    of the session's own text (the notes without HTML comments and `boilerplate` lines, i.e.
    the hot template's headings and hints). Context cold already tells, or that only repeats
    the title and the kept items, is not written again.
    """
    out = Compaction()
    groups = _sort_items(doc, out, cold_ids, labels, skip_lines, cold_text)
    size = count_text(own_text(doc.render(), boilerplate), encoding).tokens if groups else 0
    budget = ratio * size - overhead - (count_text("\n".join(out.kept), encoding).tokens if out.kept else 0)
    context = _context_groups(out, groups, title)
    if context:
        chosen = _condense(context, budget, encoding)
        for k, group in enumerate(context):
            if k not in chosen:
                out.dropped += len(group.items)
                continue
            out.condensed.append(group.line(chosen[k]))
            out.condensed_items += len(group.items)
    return out


def _sort_items(doc: MemoryDoc, out: Compaction, cold_ids: set[str], labels: dict | None,
                skip_lines: frozenset[int], cold_text: str) -> dict[tuple[int, int], tuple[str | None, list[Item]]]:
    """Put each item where it goes: KEEP_KINDS into `out.kept` (unless cold has its id), logs
    dropped, repeats counted; the context left, grouped by (section, sub-heading) with its heading."""
    seen = set(cold_ids)   # long: one pass places every item: kept, dropped, duplicate or context
    told = told_fragments(cold_text)
    last_key = None
    repeats: set[str] = set()   # sentences of context kept so far: a repeat is a duplicate
    groups: dict[tuple[int, int], tuple[str | None, list[Item]]] = {}
    # A context item that repeats a kept item (same id) must not shadow it.
    keep_ids = {i.id for i in doc.items if i.kind in KEEP_KINDS and i.line not in skip_lines}
    rendered = doc.render()
    copies = dreams.report_lines(rendered) if "openclaw:dreaming" in rendered else frozenset()
    shown: set[tuple[int, int]] = set()
    for index, section in enumerate(doc.sections):
        subs = sub_headings(section)
        for item in section.items:
            if item.line in skip_lines:
                continue
            if item.line in copies:   # Dreaming's report: its copies of other notes
                out.dropped += 1
                continue
            above = [n for n, (line, _) in enumerate(subs) if line < item.line]
            key = (index, above[-1] if above else -1)
            if key != last_key:   # "only repeats what is kept" is judged under one heading
                out.kept_words, last_key = "", key
            _show_heading_once(out, shown, key, subs[key[1]][1] if above else (section.heading if section.level else None),
                               cold_text)
            if item.kind in KEEP_KINDS:
                if item.id in seen:
                    # Already in cold: what repeats it under this heading is a duplicate, as on the first run.
                    out.kept_words += "|" + word_run(cold_form(item, section.heading, labels))
                    out.duplicates += 1
                    continue
                seen.add(item.id)
                out.keep(cold_form(item, section.heading, labels), item.id)
            elif item.kind == "log":
                comments = sentence_judge.fence_comments(item.text, prose=True)   # prose comments, a text fence's lines
                comments_id = item_id(comments)[0] if comments else ""
                if comments and comments_id not in seen:
                    seen.add(comments_id)
                    out.keep(comments, comments_id)
                out.dropped += 1
            elif item.id in seen or item.id in keep_ids or already_told(summary_sentence(item), told):
                out.kept_words += "|" + word_run(item.text) if item.id in cold_ids else ""   # in cold: repeats of it are too
                out.duplicates += 1
            else:
                seen.add(item.id)
                rest = _keep_sentences(out, item, seen, told, repeats)
                if rest is None:
                    continue
                heading = subs[key[1]][1] if above else section.heading
                groups.setdefault(key, (heading, []))[1].append(rest)
    out.headings.pop(len(out.kept), None)   # the last heading had nothing kept under it
    return groups


def _show_heading_once(out: Compaction, shown: set, key: tuple[int, int], heading: str | None, cold_text: str) -> None:
    """Mark the heading over `key` to be shown before the next kept item, once, when it names something
    (the sentence judgement's heading rule) and cold does not show it already. A mark nothing was kept
    under is dropped here when the next heading starts, and after the last item (`_sort_items`)."""
    if key in shown:
        return
    shown.add(key)   # items come heading by heading: a key not seen yet starts the next one
    out.headings.pop(len(out.kept), None)   # the heading before had nothing kept under it
    if not heading:
        return
    label = heading if heading.startswith("**") and heading.endswith("**") else f"**{heading}**"
    if sentence_judge.noise(f"### {heading}") is None and label not in cold_text:
        out.headings[len(out.kept)] = label


def _keep_sentences(out: Compaction, item: Item, seen: set[str], told: dict, repeats: set[str]) -> Item | None:
    """Keep a context item's sentences that are not noise (sentence_judge) verbatim, in note order;
    return the item with only its noise sentences, for condensing, or None when nothing is left.
    A kept part is a duplicate when cold already tells its opening, or when the items kept under
    the same heading already say its words in their order: a part whose words they merely share,
    in another order, is news and stays verbatim."""
    kept, rest = sentence_judge.split(item.text, repeats)
    if kept:
        text = item.text.rstrip("\n") if not rest else kept
        kept_id = item.id if not rest else item_id(text)[0]
        run = word_run(text)
        if kept_id in seen and kept_id != item.id or already_told(first_sentence(text), told) \
                or (run and run in out.kept_words):
            out.duplicates += 1
        else:
            seen.add(kept_id)
            out.keep(text, kept_id)
    return item.replace(text=rest) if rest else None


def word_run(text: str) -> str:
    """The text's words in order, lower case, one space apart, with a space at each end (markup,
    punctuation and list markers left out): `a in b` asks whether b says a's words in a row."""
    return " " + " ".join(WORD.findall(text.lower())) + " "


def _context_groups(out: Compaction, groups: dict, title: str) -> list[Group]:
    """One Group per heading of context: its label (none under the heading the entry is titled
    after) and its new sentences. Words the entry already carries (its title and kept items)
    add nothing; a group left with no sentence counts as duplicates."""
    known = fold_words(title + " " + " ".join(out.kept))
    same = section_label(title).lower() if title else None
    context: list[Group] = []
    for heading, items in groups.values():
        label = "" if section_label(heading).lower() == same else section_label(heading)
        sentences = []
        for item in items:
            sentence = summary_sentence(item)
            new_words = fold_words(sentence) - known
            if sentence and (new_words or not fold_words(sentence)) and sentence not in sentences:
                sentences.append(sentence)
        if not sentences:
            out.duplicates += len(items)
            continue
        context.append(Group(label, items, "; ".join(sentences).split()))
    return context


def ensure_kept(summary: str, kept: list[str]) -> tuple[str, list[str]]:
    """Re-add every kept item whose clean text the summary lacks (compared whitespace-folded)."""
    folded = " ".join(summary.split())
    missing = [text for text in kept if " ".join(clean_text(text).split()) not in folded]
    if not missing:
        return summary, []
    joined = "\n\n".join(missing)
    return (summary.rstrip() + "\n\n" + joined if summary.strip() else joined), missing


