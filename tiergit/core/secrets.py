"""Credential detection for memory files: the token formats of gitleaks' default rules
(tiergit.core.secretrules), plus secret-ish key names assigned a secret-looking value
(`password=…`, `"apiKey": "…"`, `scheme://user:pass@host`, `Password=…;` in connection strings)
and passwords stated in prose in English, German, French and Spanish.

detect-secrets' plugins cost ~0.2 s to import on every commit; here nothing is compiled at
import: each regex is compiled the first time a text holds one of its keywords, so a commit
pays only for the formats its text could contain.
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

from tiergit.core.record import record_class
from tiergit.core.secretrules import (
    GATES,
    SHAPE_RULES,
    SHORT_KEYWORDS,
    Lazy,
    documented_example,
    rules_for,
    shape_rule,
    token_run,
)
from tiergit.core.secretvalue import looks_secret, shannon_entropy

__all__ = ["ALLOW_MARK", "SecretHit", "looks_secret", "redact", "scan", "shannon_entropy"]

# A password stated in prose, in English, German, French and Spanish: "the password for the
# staging db is Tr0ub4dor&3", "Das Passwort für den Server lautet …", "le mot de passe du serveur
# est …", "la contraseña de la base es …", "passcode: …", "login admin, pass …" (also .netrc's
# `machine h login u password p`). The value is judged like an assignment's.
_PW_WORDS = (r"password|passwd|passphrase|passcode|pwd|pw|pin|passwort|kennwort|mot de passe|mdp"
             r"|contrase(?:ñ|n)a|clave")
_PREP = r"(?:for|of|on|to|für|fur|von|vom|zum|du|de|des|del|pour|para)"
_VERB = (r"(?:(?:has been |was |got )?(?:set|changed|reset|rotated) to|is|was|=|are|becomes|lautet|ist|war"
         r"|est|était|es|era)")
_PROSE_PASSWORD = Lazy(
    rf"(?i)\b(?:{_PW_WORDS})\b(?:\s+{_PREP}\s+[^.,;:=\n]{{1,40}}?)?\s+{_VERB}\s+[`'\"]?(?P<value>[^\s`'\"]+)"
    rf"|(?i:\b(?:with|using|use) (?:the )?password)\s+[`'\"]?(?P<value2>[^\s`'\"]+)"
    rf"|(?i:\b(?:{_PW_WORDS})\b[^.;:=\n]{{0,40}}?\s?:)\s+[`'\"]?(?P<value3>[^\s`'\"]+)"
    r"|(?i:\b(?:login|user(?:name)?)\b.{0,60}?\bpass(?:word|wd)?\b)(?:\s*[:=]\s*|\s+)[`'\"]?"
    r"(?P<value4>[^\s`'\",;@/][^\s`'\",;]*)")
PROSE_WORDS = ("pass", "pw", "pin", "passwort", "kennwort", "mot de passe", "mdp", "contraseña", "contrasena", "clave")

# Secret-ish key names, grouped by the kind a hit reports. A key must END with one of
# these (`DB_PASSWORD`, `clientSecret`, `api_key`), so `password_file`, `token_count`
# and `Authority` are not keys; bare `pass` only as a whole segment (`db_pass`, not `bypass`).
_KEYWORDS = {
    "password": r"pass(?:word|wd|phrase|code)|pwd|(?<![a-z0-9])pass|passwort|kennwort|contrase(?:ñ|n)a|mdp",
    "API key": r"(?:api|access|private|secret|auth|signing|encryption|master|account|service|client|subscription)[_-]?key",
    "secret": r"secret",
    "token": r"token|authorization|auth",
    "credential": r"credentials?|creds?",
}
_KEY_KINDS = [(kind, Lazy(rf"(?i)(?:{alts})s?(?:[_-]?\d+)?$")) for kind, alts in _KEYWORDS.items()]
# `key = value`, `key: value`, `key := value`, `key => value`, `"key": "value"`, `export KEY=value`,
# `**Password:** value`, `Authorization: Bearer value`, `Password=…;` in a connection string;
# `==` and `::` are not assignments. The key is taken whole (possessive), then its ending is checked.
_ASSIGN = Lazy(
    r"(?<![\w.-])(?P<key>[\w.-]++)[\"'`*\]]{0,3}[ \t]*(?:=>|:=|=(?!=)|:(?!:))[ \t]*\**[ \t]*"
    r"(?:(?i:bearer|basic|token)[ \t]+)?"
    r"(?P<value>\"[^\"]*\"|'[^']*'|`[^`]*`|[^\s\"'`,;]+)"
)
# `scheme://user:password@host`: the password part is judged like a password value.
# The scheme is bounded so a long `a.a.a…` run cannot make the scan quadratic.
_URL_USERINFO = Lazy(r"(?i)\b[a-z][a-z0-9+.-]{0,30}://[^\s:/@]*:(?P<value>[^\s/@]+)@[A-Za-z0-9\[]")


@record_class(frozen=True)
class SecretHit:
    """A credential-looking string: its line, its kind and its column."""
    line: int
    kind: str
    column: int


def _assignments(line: str):
    """Every `key = value` match, also one inside another's value: in `staging: DB_PASSWORD=x`
    the label `staging:` would otherwise swallow the real assignment as its value."""
    pos = 0
    while True:
        m = _ASSIGN.search(line, pos)
        if m is None:
            return
        yield m
        pos = m.start("value") if m.end() > m.start("value") else m.end()
        if pos <= m.start():
            pos = m.end()


def _assignment(line: str, low: str) -> tuple[str, int] | None:
    for m in _assignments(line):
        kind = next((kind for kind, ending in _KEY_KINDS if ending.search(m["key"])), None)
        if kind is None:
            continue
        value = m["value"]
        if value[0] in "\"'`":
            value = value[1:-1]
        else:
            value = value.rstrip(".)]}:")
        if looks_secret(value, kind) and not documented_example(value):
            return f"{kind} assignment", m.start() + 1
    if "://" in line:
        for m in _URL_USERINFO.finditer(line):
            if looks_secret(m["value"], "password"):
                return "password in URL", m.start() + 1
    if not any(w in low for w in PROSE_WORDS):
        return None
    for m in _PROSE_PASSWORD.finditer(line):
        value = (m["value"] or m["value2"] or m["value3"] or m["value4"] or "").rstrip(".)]}:,;")
        if looks_secret(value, "password"):
            return "password in prose", m.start() + 1
    return None


# The generic gate: a regex run once over the LOWER-CASED text, compiled only when the text
# holds a key word at all. Most lines that name a password or token do so in prose, with no
# `:`/`=` right after the word. Lower-casing once and matching case-sensitively, with every
# branch starting on a literal, is several times faster than re.I.
_KEY_TAIL = r"s?(?:[_-]?\d+)?[\"'`*\]]{0,3}[ \t]*[:=]"  # what may follow a key word before `:`/`=`
_PROSE_VERB = (r"\s+(?:(?:for|of|on|to|für|von|du|de|del|pour|para)\s[^.,;:=\n]{1,40}?\s)?"
               r"(?:is|was|=|are|becomes|lautet|ist|est|es|(?:has been |got )?(?:set|changed|reset|rotated) to)\s")
_GENERIC = Lazy(
    rf"a(?:uth(?:orization)?{_KEY_TAIL}|ccountkey=)|secret|key{_KEY_TAIL}|token{_KEY_TAIL}|cred(?:s|entials?)?{_KEY_TAIL}"
    rf"|p(?:ass(?:word|wd|phrase|code)?(?:{_KEY_TAIL}|{_PROSE_VERB})|wd(?:{_KEY_TAIL}|{_PROSE_VERB})"
    rf"|w{_PROSE_VERB}|in{_PROSE_VERB}|ass(?:word|wd|phrase|code)?\b[^.;:=\n]{{0,40}}?\s?:\s|asswort|ass\s)"
    rf"|kennwort|mot de passe|mdp\b|contrase(?:ñ|n)a|clave{_PROSE_VERB}|://[^\s/@]*:[^\s/@]+@"
    r"|with (?:the )?password\s|us(?:e|ing) (?:the )?password\s|login\s[^\n]{0,60}?pass"
)
ALLOW_MARK = "tiergit: allow-secret"


def _candidates(low: str) -> tuple[list[int], set[int], dict[int, list]]:
    """(sorted 0-based lines a token rule or the generic gate could match, those the generic
    gate passed, line -> the keyword-free rules whose shape it holds), from one pass per gate
    over the lower-cased text."""
    starts: list[tuple[int, int]] = []       # (position, GATES index; -1: a short keyword)
    starts += [(m.start(), 0) for m in GATES[0].finditer(low) if token_run(m.group())]
    for n, gate in enumerate(GATES[1:], 1):
        starts += [(m.start(), n) for m in gate.finditer(low)]
    for keyword in SHORT_KEYWORDS:
        pos = low.find(keyword)
        while pos >= 0:
            starts.append((pos, -1))
            pos = low.find(keyword, pos + 1)
    generic_first = _GENERIC.search(low)
    if not starts and generic_first is None:
        return [], set(), {}
    # lower() keeps every line break, so low's lines are text's lines, in order.
    ends = list(accumulate(len(line) for line in low.splitlines(keepends=True)))
    generic: set[int] = set()
    if generic_first is not None:
        generic = {bisect_right(ends, m.start()) for m in _GENERIC.finditer(low, generic_first.start())}
    lines, shaped = set(generic), {}
    for pos, n in starts:
        i = bisect_right(ends, pos)
        lines.add(i)
        if n in SHAPE_RULES:
            shaped.setdefault(i, []).append(shape_rule(SHAPE_RULES[n]))
    return sorted(lines), generic, shaped


def _gated_lines(text: str) -> list[int]:
    """0-based indexes (in text.splitlines()) of the lines any rule or the generic gate looks at."""
    return _candidates(text.lower())[0]


def _rule_hit(line: str, low: str, shaped: list, assignment: bool) -> tuple[str, int] | None:
    for rule, keyword in rules_for(low, assignment) + [(rule, "") for rule in shaped]:
        for m in rule.pattern.finditer(line):
            token = m.group("value") if rule.value else m.group(0)
            if documented_example(token, keyword):
                continue
            if rule.value is None or looks_secret(token, rule.value):
                return rule.kind, m.start() + 1
    return None


def scan(text: str) -> list[SecretHit]:
    """Every credential-looking string, by line. A line ending with the allow mark is skipped."""
    indexes, generic, shaped = _candidates(text.lower())
    if not indexes:
        return []
    lines = text.splitlines()
    hits = []
    for i in indexes:
        line = lines[i]
        if ALLOW_MARK in line:
            continue
        low = line.lower()
        found = _rule_hit(line, low, shaped.get(i, []), i in generic)
        if found is None and i in generic:
            found = _assignment(line, low)
        if found:
            hits.append(SecretHit(i + 1, found[0], found[1]))
    return hits


_CUT = Lazy(r"[=:]\s*|\s")


def redact(text: str) -> tuple[str, list[SecretHit]]:
    """The text with every credential replaced by `[redacted: KIND]` (from the credential, or
    the assignment's value, to the end of its line), and the hits. What tiergit writes itself
    (session entries, compacted transcripts) goes through this: tool output is not copied."""
    hits = scan(text)
    if not hits:
        return text, []
    lines = text.split("\n")
    for hit in hits:
        line = lines[hit.line - 1]
        start = hit.column - 1
        if hit.kind.endswith(("assignment", "in URL", "in prose")):
            cut = _CUT.search(line, start)
            start = cut.end() if cut else start
        lines[hit.line - 1] = f"{line[:start]}[redacted: {hit.kind}]"
    return "\n".join(lines), hits
