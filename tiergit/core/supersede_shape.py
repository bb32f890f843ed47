"""The shape of a memory item for the supersede judgement (core/supersede.py): what it is about (subject
stems, scopes, the opening words) and what it states (values: numbers, versions, names, paths, code),
and the words that retire an older value or announce a new one. Pure: a text in, a Shape out."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

# Words that retire the old value, even when the newer item still names it ("Redux is no longer used").
RETIRING_RE = re.compile(
    r"(?i)\b(instead of|no longer|not \w+ any ?more|any ?more|replaced (?:by|with)|replaces|"
    r"(?:switched|moved|migrated) (?:\w+ )?(?:to|from|into|over)|renamed|dropped|retired|"
    r"being (?:retired|removed|deleted|dropped|phased out)|(?:was|were|is|are|been) (?:removed|deleted|archived)|"
    r"deprecated|rather than|, not|taken out|(?:was|were|is|are) gone|took over(?: from)?|stopped using|phased out|"
    r"(?:do|does|did)(?:n[’']t| not) use|(?:is|are)(?:n[’']t| not) used|not used|not (?:in use|supported)|"
    r"(?:was|were) lowered|(?:was|were) raised|(?:was|were) bumped|upgraded to|downgraded to)\b")
# Of these, the ones followed by the old value ("instead of Jest"); the others follow it ("Redux is no longer used").
FORWARD_RE = re.compile(r"(?i)^(instead of|rather than|, not|replaces|stopped using|do|does|did)|\bfrom$")
# And the ones followed by the new value ("moved to Datadog"): they retire nothing by name.
TOWARD_RE = re.compile(r"(?i)\b(to|into|over)$")
# Words that announce a new value; the value itself must then differ.
NEWS_RE = re.compile(r"(?i)\b(now(?=[.;,):]|$)|(?:is|are|was) now|we now|from now on|now (?:use|uses|run|runs|expire|expires|live|lives|is|are|go|goes|"
                     r"deploy|deploys|one|two))\b")
# A statement the newer one denies: "No deploys on Fridays", "We never …".
NEGATION_RE = re.compile(r"(?i)(?:^|[;:]\s*|\b(?:we|you|agents?)\s+)(no(?!\s+longer)|never|(?:do|does|must)(?:n[’']t| not))\b\s*(.*?)(?:[;.]\s|$)")
CODE_RE = re.compile(r"`([^`]+)`")
DIGIT_RE = re.compile(r"\d")
DATE_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
CHANNEL_RE = re.compile(r"(?<![\w#])#([A-Za-z][\w-]*[\w])")
NON_ALPHA_RE = re.compile(r"[^a-z]+")
CODE_PARTS_RE = re.compile(r"[-_/.:]")
MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
LABEL_RE = re.compile(r"\*\*[^*]{1,40}:\*\*|\[[a-z]+\]|\[[a-z_]+=[^\]]*\]")   # [rule], [score=… source=…]
VERSION_RE = re.compile(r"\d+(?:\.\d+)*")
WORD_RE = re.compile(r"[\w.:+#/%-]+")     # "99.9%" stays whole: a share is no version
FRAME_RE = re.compile(r"`[^`]+`|[\w.:+#/-]+")
CLAUSE_RE = re.compile(r";\s|\s\(|\s[—–]\s|,\s(?=so\b|because\b|since\b|which\b|as\b)|"
                       r"\s(?=(?:after|since|because|until|following) the\b)")
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
# Words that are a setting's value, not its subject: "Merge queue is disabled" / "… is enabled".
# Capitalized words that number things rather than name a product: "Rule 6" and "Rule 7" are two rules.
GENERIC = frozenset("""rule phase step issue pr sprint score test tests version level priority sev day week item
task section chapter part round wave milestone story epic option case figure table page line lines""".split())
# A test or build result: it reports a run, it states nothing that holds ("45 tests pass", "0 errors").
RESULT_RE = re.compile(r"(?i)\b(?:pass|passes|passed|passing|regressions?|failures?)\b|\b\d+ (?:errors?|warnings?|failed)\b")
COPULAS = frozenset("is are was were be stays stay".split())
SETTINGS = frozenset("enabled disabled required optional mandatory allowed forbidden manual automatic".split())
# Words that are a choice wherever they stand: "single quotes" / "double quotes".
CHOICES = frozenset("single double sync async light dark".split())
VERBS = frozenset("""is are was were be runs run uses use lives live goes go has have sits sit stays stay needs need
must should can will takes take gets get owns own leads lead maintains manages handles return returns accept
accepts allow allows require requires expire expires start starts build builds deploy deploys send sends read reads
write writes point points listen listens keep keeps""".split())
ARTICLES = frozenset({"a", "an", "the", "-", "*", "+"})
SHORT = {"max": "maximum", "min": "minimum", "config": "configuration", "repo": "repository", "env": "environment",
         "handoff": "hand", "docs": "documentation", "deps": "dependencies", "db": "database",
         "owner": "own", "owned": "own", "ownership": "own"}


@dataclass(frozen=True)
class Shape:
    """What an item is about and what it states. The first fields are made for every item (a scan indexes
    them); the rest only when a pair is judged."""
    subject: frozenset[str]     # stems of the content words that are not values
    values: frozenset[str]      # numbers, versions, names, paths, code
    words: frozenset[str]       # every lowercased token and value, to tell "still mentions it"
    scopes: frozenset[str]      # staging, prod, python, … (also inside code: `infra-prod`)
    opening: str                # a capitalized first word (a name such as Maya, or just "The")
    head: str                   # the first subject word: what the statement is about
    text: str = ""              # the statement, list marker and labels left out
    prose: str = ""             # the statement without its code spans

    @cached_property
    def result(self) -> bool:
        """A test or build result ("45 tests pass", "0 errors"): it reports a run, it states nothing."""
        return bool(RESULT_RE.search(self.text))

    @cached_property
    def terms(self) -> frozenset[str]:
        """The subject, and stems of names and of identifier parts (`.openclaw/…` -> openc)."""
        parts = {p for v in self.values | {self.opening} for p in NON_ALPHA_RE.split(v) if len(p) > 2 and p not in STOP}
        return self.subject | {term(p) for p in parts}

    @cached_property
    def families(self) -> frozenset[tuple[str, str]]:
        """(family, value): ("ubuntu", "ubuntu-22.04"), ("postgres", "postgres 14"), ("file:values.yaml", …)."""
        return frozenset(_families(self.values, [w.rstrip(".,;:") for w in WORD_RE.findall(self.prose)]))

    @cached_property
    def frame(self) -> tuple[str, ...]:
        """The opening words, articles left out: ("password", "hashing", "uses", "bcrypt")."""
        words = (w.lower().rstrip(".,;") for w in FRAME_RE.findall(self.text))
        return tuple(w for w in words if w and w not in ARTICLES)[:12]

    @cached_property
    def lead(self) -> tuple[str, ...]:
        """The words before the verb: ("max", "upload", "size", "for", "avatars")."""
        out = []
        for w in self.frame[:6]:
            if w in VERBS or w.endswith(":") or w.startswith("`") or DIGIT_RE.search(w):
                break
            out.append(w)
        return tuple(out)

    @cached_property
    def first(self) -> frozenset[str] | None:
        """The subject of the first clause, when there are more ("…; ruff is configured to match")."""
        clauses = CLAUSE_RE.split(self.text, maxsplit=1)
        return shape(clauses[0]).subject if len(clauses) > 1 else None


@lru_cache(maxsize=16384)
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


def term(word: str) -> str:
    """A word as a subject term: abbreviations spelled out, then stemmed."""
    return _stem(SHORT.get(word, word))


def _families(values: set[str], tokens: list[str]) -> set[tuple[str, str]]:
    """Values that are one of a family: a versioned name (`ubuntu-22.04`, `net6.0`, Postgres 14, Go 1.21)
    or a path (`deploy/k8s/values.yaml`: the family is the file name)."""
    out = set()
    for v in values:
        if "<" in v or "{" in v:           # a pattern (`feat/<ticket>`), not a value
            continue
        if "/" in v.strip("/"):            # a path or a URL: `deploy/k8s/values.yaml`, `https://…/v1/search`
            out.add(("file:" + v.rstrip("/").rsplit("/", 1)[-1], v))
        elif DIGIT_RE.search(v):
            key = re.sub(r"[\d.:_-]+|(?<=\d)[a-z]{1,2}\b", "", v).strip()
            if len(key) >= 2 and key.isalpha():
                out.add((key, v))
    tokens = [t for t in tokens if t]
    for i, y in enumerate(tokens):      # "Postgres 14", "Go 1.21", "Gradle wrapper is at 8.5"
        if not VERSION_RE.fullmatch(y):
            continue
        for x in reversed(tokens[max(0, i - (4 if "." in y else 1)): i]):
            if re.search(r"[\d._/-]", x):        # another name's version: "golangci-lint 1.61"
                break
            if x[0].isupper() and not DIGIT_RE.search(x) and x.lower() not in NUMBER_WORDS | GENERIC:
                out.add((x.lower(), f"{x.lower()} {y}"))
                break
    return out


def shape(text: str) -> Shape:  # long: one pass over the tokens fills every field of the shape
    text = LABEL_RE.sub(" ", MARKER_RE.sub("", text))   # list markers and labels are not content
    values: set[str] = set()
    words: set[str] = set()
    scopes: set[str] = set()
    code_tokens: list[str] = []
    for code in CODE_RE.findall(text):
        values.add(code.strip().lower())
        code_tokens += TOKEN_RE.findall(code)
        words.update(w.lower() for w in TOKEN_RE.findall(code))
        scopes.update(p for p in CODE_PARTS_RE.split(code.lower()) if p in SCOPES)
    prose = DATE_RE.sub(" ", CODE_RE.sub(" ", text))     # a date says when, not what
    values.update(n.lower() for n in NUMBER_RE.findall(prose))
    values.update(c.lower() for c in CHANNEL_RE.findall(prose))      # a channel is a name: #alerts-prod
    subject: set[str] = set()
    head = ""
    tokens = TOKEN_RE.findall(prose)
    opening = tokens[0].lower() if tokens and tokens[0][0].isupper() and tokens[0].lower() not in STOP else ""
    if opening and re.match(r"(?i)\S+\s+(?:owns|leads|maintains|manages|is (?:the|our))\b", prose.strip()):
        values.add(opening)                       # "Maya owns …", "Ricardo is the owner …": a person
    for i, tok in enumerate(tokens):
        low = tok.lower().strip(".")
        words.add(low)
        if low in SCOPES and (low != "go" or tok == "Go"):     # "Alerts go to …" is no Go code
            scopes.add(low)
        if low in NUMBER_WORDS or DIGIT_RE.search(low) or ("/" in low or "." in low[1:]):
            values.add(low)
        elif tok[0].isupper() and i > 0 and low not in STOP and low not in SCOPES:
            values.add(low)                       # a name: Redux, Datadog, Maya, Vite
        elif low in CHOICES or low in SETTINGS and i > 0 and tokens[i - 1].lower() in COPULAS:
            values.add(low)                       # "Merge queue is disabled"
        elif low not in STOP and len(low) > 2:
            subject.add(term(low))
            head = head or term(low)
    return Shape(frozenset(subject), frozenset(values), frozenset(words | values), frozenset(scopes), opening,
                 head, text, prose)


def kind(value: str) -> str:
    """What sort of value: a time of day or a weekday, a number or version, a path, a name."""
    if re.fullmatch(r"\d{1,2}:\d\d|(?:mon|tues|wednes|thurs|fri|satur|sun)days?", value):
        return "time"
    if "/" in value:
        return "path"
    return "name"     # a number, a version or a name: "webpack 5" -> "Vite" is one thing replaced
