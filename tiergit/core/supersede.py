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

# Words that retire the old value, even when the newer item still names it ("Redux is no longer used").
RETIRING_RE = re.compile(
    r"(?i)\b(instead of|no longer|not \w+ any ?more|any ?more|replaced (?:by|with)|replaces|"
    r"(?:switched|moved|migrated) (?:\w+ )?(?:to|from|into|over)|renamed|dropped|retired|"
    r"being (?:retired|removed|phased out)|(?:was|were|is|are|been) (?:removed|deleted|archived)|deprecated|"
    r"rather than|taken out|(?:was|were|is|are) gone|took over(?: from)?|stopped using|phased out|"
    r"(?:do|does|did)(?:n[’']t| not) use|(?:is|are)(?:n[’']t| not) used|not used|not (?:in use|supported)|"
    r"(?:was|were) lowered|(?:was|were) raised|(?:was|were) bumped|upgraded to|downgraded to)\b")
# Of these, the ones followed by the old value ("instead of Jest"); the others follow it ("Redux is no longer used").
FORWARD_RE = re.compile(r"(?i)^(instead of|rather than|replaces|stopped using|do|does|did)|\bfrom$")
# And the ones followed by the new value ("moved to Datadog"): they retire nothing by name.
TOWARD_RE = re.compile(r"(?i)\b(to|into|over)$")
# Words that announce a new value; the value itself must then differ.
NEWS_RE = re.compile(r"(?i)\b(now(?=[.;,)]|$)|we now|from now on|now (?:use|uses|run|runs|expire|expires|live|lives|is|are|go|goes|"
                     r"deploy|deploys|one|two))\b")
CODE_RE = re.compile(r"`([^`]+)`")
NUMBER_RE = re.compile(r"(?<![\w.])\d+(?:[.:,]\d+)*(?:[a-zA-Z%]{1,3})?(?![\w])")
TOKEN_RE = re.compile(r"[A-Za-z][\w.+#/-]*[\w+#]|[A-Za-z]")
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten twice once".split())
# A word that says which part of the world a statement is about: two items that differ in one
# of these are about different things, whatever else they share.
SCOPES = frozenset("""staging stage prod production dev development local test testing qa ci preview sandbox
public internal external admin private frontend backend mobile web desktop ios android windows linux macos
python typescript javascript csharp java kotlin swift golang rust ruby php go node dotnet
access refresh read write primary replica worker cli api docs""".split())
STOP = frozenset("""a an the and or but of to in on at by for from with without is are was were be been being it
its this that these those as into over under via per than then so if when while we our you your they them their
all any each every also still just only not no new now use used uses using run runs ran lives live lies goes go
has have had do does did can could should must will would may might here there which who what where how about
after before every""".split())
MIN_SHARED = 2
ARTICLES = frozenset({"a", "an", "the", "-", "*", "+"})
SHORT = {"max": "maximum", "min": "minimum", "config": "configuration", "repo": "repository", "env": "environment",
         "handoff": "hand", "docs": "documentation", "deps": "dependencies", "db": "database",
         "owner": "own", "owned": "own", "ownership": "own"}


@dataclass(frozen=True)
class Shape:
    subject: frozenset[str]     # stems of the content words that are not values
    values: frozenset[str]      # numbers, versions, names, paths, code
    words: frozenset[str]       # every lowercased token and value, to tell "still mentions it"
    scopes: frozenset[str]      # staging, prod, python, … (also inside code: `infra-prod`)
    opening: str                # a capitalized first word (a name such as Maya, or just "The")
    head: str                   # the first subject word: what the statement is about
    families: frozenset[tuple[str, str]] = frozenset()   # (family, value): ("ubuntu", "ubuntu-22.04")
    frame: tuple[str, ...] = ()  # the opening words, articles left out: "password hashing uses bcrypt"


def _stem(word: str) -> str:
    """A crude stem (pinned, pins -> pin; bundled, bundling -> bundl) so inflections match."""
    if word.endswith("ies") and len(word) > 5:
        word = word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word[:5]


def _families(values: set[str], tokens: list[str]) -> set[tuple[str, str]]:
    """Values that are one of a family: a versioned name (`ubuntu-22.04`, `net6.0`, Postgres 14, Go 1.21)
    or a path (`deploy/k8s/values.yaml`: the family is the file name)."""
    out = set()
    for v in values:
        if "/" in v.strip("/") and not v.startswith("http"):
            out.add(("file:" + v.rstrip("/").rsplit("/", 1)[-1], v))
        elif any(c.isdigit() for c in v):
            key = re.sub(r"[\d.:_-]+|(?<=\d)[a-z]{1,2}\b", "", v).strip()
            if len(key) >= 2 and key.isalpha():
                out.add((key, v))
    for x, y in zip(tokens, tokens[1:]):            # "Postgres 14", "Go 1.21", "Node 20"
        if x[0].isalpha() and not any(c.isdigit() for c in x) and re.fullmatch(r"\d+(?:\.\d+)*", y):
            if x.lower() not in STOP and x.lower() not in NUMBER_WORDS:
                out.add((x.lower(), f"{x.lower()} {y}"))
    return out


def shape(text: str) -> Shape:  # long: one pass over the tokens fills every field of the shape
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text)
    text = re.sub(r"\*\*[^*]{1,40}:\*\*|\[[a-z]+\]", " ", text)   # labels are not content
    values: set[str] = set()
    words: set[str] = set()
    scopes: set[str] = set()
    code_tokens: list[str] = []
    for code in CODE_RE.findall(text):
        values.add(code.strip().lower())
        code_tokens += TOKEN_RE.findall(code)
        words.update(w.lower() for w in TOKEN_RE.findall(code))
        scopes.update(p for p in re.split(r"[-_/.:]", code.lower()) if p in SCOPES)
    prose = CODE_RE.sub(" ", text)
    values.update(n.lower() for n in NUMBER_RE.findall(prose))
    subject: set[str] = set()
    head = ""
    tokens = TOKEN_RE.findall(prose)
    opening = tokens[0].lower() if tokens and tokens[0][0].isupper() and tokens[0].lower() not in STOP else ""
    if opening and re.match(r"(?i)\S+\s+(?:owns|leads|maintains|manages|is (?:the|our))\b", prose.strip()):
        values.add(opening)                       # "Maya owns …", "Ricardo is the owner …": a person
    for i, tok in enumerate(tokens):
        low = tok.lower().strip(".")
        words.add(low)
        if low in SCOPES:
            scopes.add(low)
        if low in NUMBER_WORDS or any(c.isdigit() for c in low) or ("/" in low or "." in low[1:]):
            values.add(low)
        elif tok[0].isupper() and i > 0 and low not in STOP and low not in SCOPES:
            values.add(low)                       # a name: Redux, Datadog, Maya, Vite
        elif low not in STOP and len(low) > 2:
            subject.add(_stem(SHORT.get(low, low)))
            head = head or _stem(SHORT.get(low, low))
    frame = tuple(w.lower() for w in re.findall(r"`[^`]+`|[\w.:+#/-]+", text) if w.lower() not in ARTICLES)
    families = _families(values, re.findall(r"[\w.:+#/-]+", prose))
    return Shape(frozenset(subject), frozenset(values), frozenset(words | values), frozenset(scopes), opening,
                 head, frozenset(families), frame[:12])


@dataclass(frozen=True)
class Verdict:
    supersedes: bool
    reason: str


def judge(older: str, newer: str) -> Verdict:
    """Whether `newer` supersedes `older`, with a one-line reason either way."""
    return judge_shapes(shape(older), shape(newer), newer)


def _family_swap(a: Shape, b: Shape) -> str:
    """"ubuntu-22.04 -> ubuntu-24.04" when the newer names another member of a family the older named,
    and no longer names the older's member."""
    new = dict(b.families)
    for key, old_value in sorted(a.families):
        if key in new and new[key] != old_value and old_value not in b.words:
            if not any(k == key and v == old_value for k, v in b.families):
                return f"{old_value} -> {new[key]}"
    return ""


def _reframed(a: Shape, b: Shape) -> str:
    """"bcrypt -> argon2id" when both open with the same words ("Password hashing uses …") and then part:
    the older's next word is a value the newer no longer names, the newer's a value the older never named."""
    n = 0
    while n < min(len(a.frame), len(b.frame)) and a.frame[n] == b.frame[n]:
        n += 1
    if n < 2 or n >= len(a.frame) or n >= len(b.frame) or sum(w not in STOP for w in a.frame[:n]) < 1:
        return ""
    old, new = a.frame[n].strip("`.,;:"), b.frame[n].strip("`.,;:")
    if old in STOP or new in STOP or old in b.words or new in a.words:
        return ""
    return f"{old} -> {new}" if new in b.values else ""


def _retired(a: Shape, newer: str) -> tuple[str, list[str]]:
    """The first retiring words of `newer` and the older's values it retires: named in the clause after
    forward words ("instead of Jest"), before the others ("Redux is no longer used")."""
    first, out = "", set()
    for m in RETIRING_RE.finditer(newer):
        first = first or m.group(0)
        if TOWARD_RE.search(m.group(0)) and not FORWARD_RE.search(m.group(0)):
            continue
        clause = re.split(r"[;.](?:\s|$)", newer[m.start():], maxsplit=1)[0]   # "instead of Jest"
        if not FORWARD_RE.search(m.group(0)):        # "Redux is no longer used", "we dropped Conventional Commits"
            clause += " " + re.split(r"[;,]\s|\.\s", newer[: m.start()])[-1]
        words = {w.lower().strip(".") for w in TOKEN_RE.findall(clause)} | {c.lower() for c in CODE_RE.findall(clause)}
        out |= {v for v in a.values if v in words and not v[0].isdigit()}
    return first, sorted(out)


def _kind(value: str) -> str:
    """What sort of value: a time of day or a weekday, a number or version, a path, a name."""
    if re.fullmatch(r"\d{1,2}:\d\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday", value):
        return "time"
    if "/" in value:
        return "path"
    return "number" if any(c.isdigit() for c in value) or value in NUMBER_WORDS else "name"


def _other_thing(a: Shape, b: Shape, dropped: set[str], added: set[str]) -> bool:
    """The values swapped are not one thing's: different kinds (Q3 -> Monday), or versions of different
    names (`worker:1.5.0` -> `scheduler:2.1.0`), or two files side by side (`api/Chart.yaml` -> `api/values.yaml`)."""
    if ("time" in {_kind(v) for v in dropped}) != ("time" in {_kind(v) for v in added}):
        return True
    old = {k for k, v in a.families if v in dropped}
    new = {k for k, v in b.families if v in added}
    if old and new and not old & new and len(old) == len(dropped) and len(new) == len(added):
        return all(k.startswith("file:") for k in old | new) and {v.rsplit("/", 1)[0] for v in dropped} == \
            {v.rsplit("/", 1)[0] for v in added} or not any(k.startswith("file:") for k in old | new)
    return False


def judge_shapes(a: Shape, b: Shape, newer: str) -> Verdict:  # long: the rules in order, each one readable
    """`judge` on shapes already made (a scan makes each item's shape once)."""
    if a.scopes != b.scopes and (a.scopes - b.words) and (b.scopes - a.words):
        return Verdict(False, f"different scope ({', '.join(sorted(a.scopes ^ b.scopes))})")
    shared = len(a.subject & b.subject) + len(a.values & b.values) + len(a.scopes & b.scopes)
    if a.head and a.head == b.head and shared == MIN_SHARED - 1:
        shared = MIN_SHARED        # both open on the same subject ("Secrets are kept …" / "Secrets live …")
    swap = _family_swap(a, b)
    if swap and shared + 1 >= MIN_SHARED:
        return Verdict(True, f"another version: {swap}")
    retiring, retired = _retired(a, newer)
    if retiring and retired and shared + 1 >= MIN_SHARED:
        return Verdict(True, f"says \"{retiring}\": {', '.join(retired)}")   # "we don't use Storybook anymore"
    if shared < MIN_SHARED:
        return Verdict(False, "different subject")
    news = NEWS_RE.search(newer)
    a_names = a.values | ({a.opening} if a.opening else set())
    b_names = b.values | ({b.opening} if b.opening else set())
    added = {v for v in b_names - a_names if v not in a.words or (v in b.values and v not in a.values
                                                                 and "`" + v + "`" in newer.lower())}
    dropped = {v for v in a_names - b_names if v not in b.words}
    if retiring:
        if (added and (shared > MIN_SHARED or dropped)):
            return Verdict(True, f"says \"{retiring}\": {', '.join(retired or sorted(added))}")
        return Verdict(False, f"says \"{retiring}\" about something else")
    if news:
        if added or dropped:
            return Verdict(True, f"says \"{news.group(0)}\": {', '.join(sorted(added or dropped))}")
        return Verdict(False, f"says \"{news.group(0)}\" but states no other value")
    reframed = _reframed(a, b)
    if reframed:
        return Verdict(True, f"same opening, another value: {reframed}")
    dropped = {v for v in a.values - b.values if v not in b.words}
    added = {v for v in b.values - a.values if v not in a.words}
    if not (dropped and added):
        return Verdict(False, "keeps the older value" if not dropped else "adds nothing in its place")
    if len(dropped) > 2 or len(added) > 3 or len(added) > len(dropped) + 1:
        return Verdict(False, "states many other things: not one value replaced")
    if len(a.subject - b.subject) + len(b.subject - a.subject) > 3:
        return Verdict(False, "says something else about the subject")
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
        (ko, so), (kn, sn, tn) = ((ki, si), (kj, sj, tj)) if di < dj else ((kj, sj), (ki, si, ti))
        verdict = judge_shapes(so, sn, tn)
        if verdict.supersedes:
            out.append((ko, kn, verdict.reason))
    return out
