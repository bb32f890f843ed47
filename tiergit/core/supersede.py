"""Does a newer memory item supersede an older one? Same subject, a different value.

Two items are about the same thing when they share at least two subject words or values;
the newer replaces the older when it drops a value the older stated (a number, version,
name, path or code) and brings its own, with little else changed — or when it says so
("instead of", "no longer", "replaced by", "we now", "moved to"). Items whose scope
differs (staging against production, Python against TypeScript, public against internal)
are about different things and never supersede each other. Additions and restatements
keep the older value, so they never supersede it either.

Pure and deterministic: two texts in, a verdict with its reason out.
Measured on `tests/labels/supersede_pairs.tsv` by `benchmarks/bench_supersede.py`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tiergit.core.supersede_shape import (  # noqa: F401  (MIN_SHARED, shape: the benchmark's imports)
    CODE_RE, FORWARD_RE, MARKER_RE, MIN_SHARED, NEGATION_RE, NEWS_RE, RETIRING_RE, SCOPES, STOP, TOKEN_RE, TOWARD_RE,
    Shape, kind, shape, term)


DIGIT = re.compile(r"\d")
EXCEPTION_RE = re.compile(r"(?i)\b(still|also|as well|except|only for|stays? (?:on|at|in)|includes?|contains?|adds?)\b")
LINKS = frozenset("with is are uses use in on at by to via from using through be".split())


@dataclass(frozen=True)
class Verdict:
    supersedes: bool
    reason: str


def judge(older: str, newer: str) -> Verdict:
    """Whether `newer` supersedes `older`, with a one-line reason either way."""
    return judge_shapes(shape(older), shape(newer), newer, older)


def _family_swap(a: Shape, b: Shape) -> str:
    """"ubuntu-22.04 -> ubuntu-24.04" when the newer names another member of a family the older named,
    and no longer names the older's member."""
    new = dict(b.families)
    for key, old_value in sorted(a.families):
        if key in new and new[key] != old_value and old_value not in b.words:
            if not any(k == key and v == old_value for k, v in b.families):
                return f"{old_value} -> {new[key]}"
    for old_value in sorted(a.values - b.words):      # `text-embedding-ada-002` -> `text-embedding-3-small`
        for new_value in sorted(b.values - a.words):
            common = _common(old_value, new_value)
            if DIGIT.search(old_value) and DIGIT.search(new_value) and "/" not in old_value + new_value \
                    and len(common) >= 8 and 2 * len(common) >= min(len(old_value), len(new_value)):
                return f"{old_value} -> {new_value}"
    return ""


def _common(x: str, y: str) -> str:
    return x[:next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))]


def _reframed(a: Shape, b: Shape) -> str:
    """"bcrypt -> argon2id" when both open with the same words ("Password hashing uses …") and then part:
    the older's next word is a value the newer no longer names, the newer's a value the older never named."""
    n = 0
    while n < min(len(a.frame), len(b.frame)) and a.frame[n] == b.frame[n]:
        n += 1
    if n < 2 or n >= len(a.frame) or n >= len(b.frame) or sum(w not in STOP for w in a.frame[:n]) < 1:
        return ""
    if a.frame[n - 1].endswith(":"):     # "Style rule: TypeScript …" / "Style rule: Markdown …": a label, then the subject
        return ""
    old, new = a.frame[n].strip("`.,;:"), b.frame[n].strip("`.,;:")
    if old in STOP or new in STOP or old in b.words or new in a.words:
        return ""
    same_after = n + 1 < min(len(a.frame), len(b.frame)) and a.frame[n + 1].rstrip(":") == b.frame[n + 1].rstrip(":") \
        and a.frame[n - 1] in LINKS                      # "merged with squash merge" / "… with rebase merge"
    return f"{old} -> {new}" if new in b.values or same_after else ""


def _narrower(a: Shape, b: Shape) -> str:
    """The newer is about another part of the thing: its words before the verb put another word in place
    of one of the older's ("… size for avatars" / "… size for document attachments") or add a name
    that becomes its head ("Kafka runs …" / "Kafka UI runs …", but "default region" / "default AWS region")."""
    if not set(a.lead) & set(b.lead) - STOP:
        return ""
    new = {w for w in b.lead if w not in a.words and term(w) not in a.terms and w not in STOP}
    lost = {w for w in a.lead if w not in b.words and term(w) not in b.terms and w not in STOP}
    if (new - b.values and lost) or (new and not lost and new <= b.values and b.lead[-1] in new):
        return ", ".join(sorted(new))
    return ""


def _one_name_replaced(a: Shape, b: Shape) -> str:
    """"crowdin -> lokalise": the older names one thing the newer no longer names, the newer one in its place."""
    old = {v for v in a.values if v not in b.words}
    new = {v for v in b.values if v not in a.words}
    if len(old) == 1 and len(new) == 1 and kind(min(old)) == kind(min(new)):
        return f"{min(old)} -> {min(new)}"
    return ""


def _time_moved(a: Shape, b: Shape) -> str:
    """"mondays -> tuesdays": the older's only times are gone and the newer states its own."""
    old = {v for v in a.values if kind(v) == "time" and v not in b.words}
    new = {v for v in b.values if kind(v) == "time" and v not in a.words}
    if old and new and old == {v for v in a.values if kind(v) == "time"}:
        return f"{', '.join(sorted(old))} -> {', '.join(sorted(new))}"
    return ""


@lru_cache(maxsize=4096)
def _signals(newer: str) -> tuple[str, str, bool]:
    """Once per newer text: its exception words ("still", "also"), its news words ("now", "we now"),
    and whether it forbids something ("Never run …")."""
    still, news = EXCEPTION_RE.search(newer), NEWS_RE.search(newer)
    return (still.group(0) if still else "", news.group(0) if news else "",
            bool(NEGATION_RE.search(re.sub(r"^\s*[-*+]\s+", "", newer))))


@lru_cache(maxsize=4096)
def _denials(text: str) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """What a statement denies ("No deploys on Fridays"): (phrase, terms, values) per denial; () when
    it denies nothing. Once per text: a scan judges one newer item against many older ones."""
    text = MARKER_RE.sub("", text)
    out = []
    for m in NEGATION_RE.finditer(text):
        denied = shape(m.group(2))
        out.append((m.group(1) + " " + m.group(2), denied.terms, frozenset(v for v in denied.values if not v.isalpha())))
    return tuple(out)


def _denied(a: Shape, older: str, newer: str) -> str:
    """"No deploys on Fridays" against "We deploy on Fridays …": the newer denies what the older states."""
    if _denials(older):
        return ""
    for phrase, terms, values in _denials(newer):
        if len(terms & a.terms) + len(values & a.values) >= MIN_SHARED and a.head in terms:
            return phrase
    return ""


def _words(text: str) -> frozenset[str]:
    return frozenset({w.lower().strip(".") for w in TOKEN_RE.findall(text)} | {c.lower() for c in CODE_RE.findall(text)})


@lru_cache(maxsize=4096)
def _markers(newer: str) -> tuple[tuple[str, bool, frozenset[str]], ...]:
    """The retiring words of a statement: (words, leads to the new value, the words of their window).
    The window is the next three words after forward words ("instead of Jest"), with the clause before
    for the others ("Redux is no longer used"), the rest of the clause for words that lead to the new
    value ("moved to Datadog")."""
    out = []
    for m in RETIRING_RE.finditer(newer):
        if TOWARD_RE.search(m.group(0)) and not FORWARD_RE.search(m.group(0)):
            out.append((m.group(0), True, _words(re.split(r"[;,.](?:\s|$)", newer[m.end():], maxsplit=1)[0])))
            continue
        after = re.split(r"[;.](?:\s|$)", newer[m.end():], maxsplit=1)[0]
        clause = " ".join(re.findall(r"`[^`]+`|\S+", after)[:3])
        if not FORWARD_RE.search(m.group(0)):
            clause += " " + re.split(r"[;,]\s|\.\s", newer[: m.start()])[-1]
        out.append((m.group(0), False, _words(clause)))
    return tuple(out)


def _retired(a: Shape, newer: str) -> tuple[str, list[str]]:
    """The first retiring words of `newer` and the older's values they retire. Words that lead to the
    new value retire nothing; if the older already names that value, the move is what the older said,
    and the words are not counted; nor is ", not" that names none of the older's values."""
    first, out = "", set()
    for marker, toward, words in _markers(newer):
        named = {v for v in a.values if v in words and (toward or not v[0].isdigit())}
        if toward:
            first = first or ("" if named else marker)
            continue
        if named or marker != ", not":       # ", not stored in slices" retires nothing
            first = first or marker
        out |= named
    return first, sorted(out)


def _other_thing(a: Shape, b: Shape, dropped: set[str], added: set[str]) -> bool:
    """The values swapped are not one thing's: different kinds (Q3 -> Monday, Markdown -> `docs/`), or
    two files side by side
    (`api/Chart.yaml` -> `api/values.yaml`)."""
    dropped, added = dropped & a.values, added & b.values      # an opening word is no value of a kind
    kinds_old, kinds_new = {kind(v) for v in dropped}, {kind(v) for v in added}
    if dropped and added and (not kinds_old & kinds_new or ("time" in kinds_old) != ("time" in kinds_new)):
        return True
    old = {(k, v) for k, v in a.families if v in dropped}
    new = {(k, v) for k, v in b.families if v in added}
    if not old or not new or {k for k, _ in old} & {k for k, _ in new} or len(old) < len(dropped):
        return False
    return any(k.startswith("file:") for k, _ in old | new) and bool({v.rsplit("/", 1)[0] for _, v in old} & {v.rsplit("/", 1)[0] for _, v in new})


def judge_shapes(a: Shape, b: Shape, newer: str, older: str = "") -> Verdict:  # long: the rules in order, each one readable
    """`judge` on shapes already made (a scan makes each item's shape once)."""
    if a.result or b.result:
        return Verdict(False, "a test or build result, not a statement")
    if a.scopes != b.scopes and (a.scopes - b.words) and {x for x in b.scopes - a.words if x[:5] not in a.subject}:
        return Verdict(False, f"different scope ({', '.join(sorted(a.scopes ^ b.scopes))})")
    lead_a, lead_b = SCOPES.intersection(a.lead), SCOPES.intersection(b.lead)
    if lead_a and lead_b and not lead_a & lead_b:
        return Verdict(False, f"different scope ({', '.join(sorted(lead_a | lead_b))})")   # "The backend runs …"
    shared = len(a.terms & b.terms) + len({v for v in a.values & b.values if not v.isalpha()}) + len(a.scopes & b.scopes)
    if a.head and a.head == b.head and shared == MIN_SHARED - 1:
        shared = MIN_SHARED        # both open on the same subject ("Secrets are kept …" / "Secrets live …")
    still, news, forbids = _signals(newer)   # "… still uses UIKit", "… also allows": beside the older, not over it
    swap = _family_swap(a, b)
    if swap and shared + 1 >= MIN_SHARED and not still:
        return Verdict(True, f"another version: {swap}")
    retiring, retired = _retired(a, newer)
    if retiring and retired and shared + 1 >= MIN_SHARED:
        return Verdict(True, f"says \"{retiring}\": {', '.join(retired)}")   # "we don't use Storybook anymore"
    if shared == MIN_SHARED - 1 and news and (moved := _time_moved(a, b)):
        return Verdict(True, f"says \"{news}\": {moved}")   # Mondays -> Tuesdays
    marker = (retiring if TOWARD_RE.search(retiring) else "") or news
    if shared == MIN_SHARED - 1 and marker and not still and (replaced := _one_name_replaced(a, b)):
        return Verdict(True, f"says \"{marker}\": {replaced}")   # "… in Crowdin" / "We moved translations to Lokalise"
    if shared < MIN_SHARED:
        return Verdict(False, "different subject")
    denied = _denied(a, older, newer)
    if denied:
        return Verdict(True, f"denies it: \"{denied}\"")
    a_names = a.values | ({a.opening} if a.opening else set())
    b_names = b.values | ({b.opening} if b.opening else set())
    added = {v for v in b_names - a_names if v not in a.words or (v in b.values and v not in a.values
                                                                 and "`" + v + "`" in newer.lower())}
    dropped = {v for v in a_names - b_names if v not in b.words}
    if retiring:
        if added and (shared > MIN_SHARED or dropped) and not _other_thing(a, b, dropped, added):
            return Verdict(True, f"says \"{retiring}\": {', '.join(retired or sorted(added))}")
        return Verdict(False, f"says \"{retiring}\" about something else")
    if news:
        if added or dropped:
            return Verdict(True, f"says \"{news}\": {', '.join(sorted(added or dropped))}")
        return Verdict(False, f"says \"{news}\" but states no other value")
    reframed = _reframed(a, b)
    if reframed:
        return Verdict(True, f"same opening, another value: {reframed}")
    if still:
        return Verdict(False, f"says \"{still}\": an exception beside the older")
    if forbids:
        return Verdict(False, "forbids something else")       # "Use `npm ci`" / "Never run `npm install`"
    dropped = {v for v in a.values - b.values if v not in b.words}
    added = {v for v in b.values - a.values if v not in a.words}
    if not (dropped and added):
        return Verdict(False, "keeps the older value" if not dropped else "adds nothing in its place")
    if len(dropped) > 2 or len(added) > 3 or len(added) > len(dropped) + 1:
        return Verdict(False, "states many other things: not one value replaced")
    if len(a.subject ^ b.subject) > 3 and len((a.first or a.subject) ^ (b.first or b.subject)) > 3:
        return Verdict(False, "says something else about the subject")
    narrower = _narrower(a, b)
    if narrower:
        return Verdict(False, f"about another part of it ({narrower})")
    if _other_thing(a, b, dropped, added):
        return Verdict(False, "the values are not one thing's")
    return Verdict(True, f"{', '.join(sorted(dropped))} -> {', '.join(sorted(added))}")


MAX_STATEMENT = 240   # characters: a supersede is judged between statements, not between session reports


def scan(items: list[tuple[object, object, str]], focus: set | None = None,
         limit_pairs: int = 200_000) -> list[tuple[object, object, str]]:
    """(older key, newer key, reason) for every pair where the newer item supersedes the older.

    `items`: (key, day, text), `day` comparable (a date) or None (undated items are never paired);
    items longer than a statement are left out. `focus`: only pairs with at least one key in it.
    Only items sharing two subject words or values are compared (an inverted index), so a store
    of thousands of items costs a few thousand comparisons, not millions."""
    dated = [(k, d, t, shape(t)) for k, d, t in items if d is not None and len(t) <= MAX_STATEMENT]
    index: dict[str, list[int]] = {}
    for i, (_, _, _, sh) in enumerate(dated):
        for term in sh.subject | sh.values:
            index.setdefault(term, []).append(i)
    counts: dict[tuple[int, int], int] = {}
    for members in index.values():
        if len(members) > 200:      # a word in everything ("tests", "the build") pairs nothing
            continue
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                pair = (members[x], members[y])
                counts[pair] = counts.get(pair, 0) + 1
                if len(counts) > limit_pairs:
                    break
    out = []
    for (i, j), n in sorted(counts.items()):
        if n < MIN_SHARED:
            continue
        (ki, di, ti, si), (kj, dj, tj, sj) = dated[i], dated[j]
        if di == dj or (focus is not None and ki not in focus and kj not in focus):
            continue
        (ko, so, to), (kn, sn, tn) = ((ki, si, ti), (kj, sj, tj)) if di < dj else ((kj, sj, tj), (ki, si, ti))
        verdict = judge_shapes(so, sn, tn, to)
        if verdict.supersedes:
            out.append((ko, kn, verdict.reason))
    return out
