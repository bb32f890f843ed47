"""Credential detection for memory files: fast regexes for the common token formats,
plus secret-ish key names assigned a secret-looking value.

detect-secrets' plugins cover the same ground but cost ~0.2 s to import on every
commit; these patterns follow its keyword-free plugins (AWS, GitHub, Slack, private
keys, OpenAI/Anthropic, Stripe, Google, JWT) and, for `password=…`-style lines, its
KeywordDetector with an entropy filter, so the hook stays fast.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("AWS access key id", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Z0-9])")),
    ("AWS secret access key", re.compile(r"(?i)aws.{0,20}secret.{0,20}[=:]\s*['\"]?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])")),
    ("GitHub token", re.compile(r"(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}")),
    ("GitHub fine-grained token", re.compile(r"github_pat_[A-Za-z0-9_]{60,255}")),
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("Slack token", re.compile(r"xox[abposr]-[0-9A-Za-z-]{10,}")),
    ("Slack webhook", re.compile(r"https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+")),
    ("OpenAI API key", re.compile(r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|(?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{48}(?![A-Za-z0-9])|(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}")),
    ("Anthropic API key", re.compile(r"sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}")),
    ("Stripe secret key", re.compile(r"(?:sk|rk)_live_[0-9a-zA-Z]{24,}")),
    ("Google API key", re.compile(r"AIza[0-9A-Za-z_-]{35}")),
    ("JSON web token", re.compile(r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
    # gitleaks' common vendor rules (fixed prefixes, so no keyword is needed).
    ("GitLab token", re.compile(r"(?<![\w-])gl(?:pat|dt|rt|ptt|oas|cbt|imt|ft|soat)-[A-Za-z0-9_-]{20,}")),
    ("npm token", re.compile(r"(?<![\w-])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])")),
    ("PyPI token", re.compile(r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}")),
    ("Azure SAS token", re.compile(r"(?i)(?:[?&;]|\b)sig=[A-Za-z0-9%+/]{30,}(?:%3d|=)*")),
    ("Azure storage key", re.compile(r"(?i)AccountKey=[A-Za-z0-9+/]{80,}={0,2}")),
    ("Azure client secret", re.compile(r"(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])")),
    ("Twilio API key", re.compile(r"(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])")),
    ("SendGrid API key", re.compile(r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}")),
    ("Hugging Face token", re.compile(r"(?<![\w-])(?:hf_|api_org_)[A-Za-z]{34}(?![A-Za-z0-9])")),
    ("Docker token", re.compile(r"(?<![\w-])dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}")),
    ("Mailgun key", re.compile(r"(?<![\w-])key-[0-9a-f]{32}(?![0-9a-f])")),
    ("Shopify token", re.compile(r"(?<![\w-])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}")),
    ("Databricks token", re.compile(r"(?<![\w-])dapi[a-f0-9]{32}(?:-\d)?(?![\w])")),
    ("Discord webhook", re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]{50,}")),
    ("Discord bot token", re.compile(r"(?<![\w.-])[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![\w-])")),
]
# A literal (lower-cased) each format needs: a line without it skips that regex, which
# keeps the scan of a gated long line from running thirty scans over it.
NEEDLES = {
    "AWS access key id": "a", "AWS secret access key": "aws", "GitHub token": "gh", "GitHub fine-grained token": "github_pat_",
    "private key block": "private key", "Slack token": "xox", "Slack webhook": "hooks.slack", "OpenAI API key": "sk-",
    "Anthropic API key": "sk-ant-", "Stripe secret key": "_live_", "Google API key": "aiza", "JSON web token": "eyj",
    "GitLab token": "gl", "npm token": "npm_", "PyPI token": "pypi-", "Azure SAS token": "sig=",
    "Azure storage key": "accountkey=", "Azure client secret": "q~", "Twilio API key": "sk", "SendGrid API key": "sg.",
    "Hugging Face token": "_", "Docker token": "dckr_", "Mailgun key": "key-", "Shopify token": "shp",
    "Databricks token": "dapi", "Discord webhook": "discord", "Discord bot token": ".",
}
# A password stated in prose: "the password for the staging db is Tr0ub4dor&3",
# "pw is hunter2hunter2", "using password `S3cr3t!`". The value is judged like an assignment's.
_PROSE_PASSWORD = re.compile(
    r"(?i)\b(?:password|passwd|passphrase|pwd|pw|pin)\b(?:\s+(?:for|of|on|to)\s+[^.,;:=\n]{1,40}?)?"
    r"\s+(?:(?:has been |was |got )?(?:set|changed|reset|rotated) to|is|was|=|are|becomes)\s+[`'\"]?"
    r"(?P<value>[^\s`'\"]+)"
    r"|(?i:\b(?:with|using|use) (?:the )?password)\s+[`'\"]?(?P<value2>[^\s`'\"]+)")

# Secret-ish key names, grouped by the kind a hit reports. A key must END with one of
# these (`DB_PASSWORD`, `clientSecret`, `api_key`), so `password_file`, `token_count`
# and `Authority` are not keys; bare `pass` only as a whole segment (`db_pass`, not `bypass`).
_KEYWORDS = {
    "password": r"pass(?:word|wd|phrase)|pwd|(?<![a-z0-9])pass",
    "API key": r"(?:api|access|private|secret|auth|signing|encryption|master|account|service|client|subscription)[_-]?key",
    "secret": r"secret",
    "token": r"token|authorization|auth",
    "credential": r"credentials?|creds?",
}
_KEY_KINDS = [(kind, re.compile(rf"(?i)(?:{alts})s?(?:[_-]?\d+)?$")) for kind, alts in _KEYWORDS.items()]
# `key = value`, `key: value`, `key := value`, `key => value`, `"key": "value"`, `export KEY=value`,
# `**Password:** value`, `Authorization: Bearer value`; `==` and `::` are not assignments.
# The key is taken whole (possessive), then its ending is checked: one try per word.
_ASSIGN = re.compile(
    r"(?<![\w.-])(?P<key>[\w.-]++)[\"'`*\]]{0,3}[ \t]*(?:=>|:=|=(?!=)|:(?!:))[ \t]*\**[ \t]*"
    r"(?:(?i:bearer|basic|token)[ \t]+)?"
    r"(?P<value>\"[^\"]*\"|'[^']*'|`[^`]*`|[^\s\"'`,;]+)"
)
# `scheme://user:password@host`: the password part is judged like a password value.
# The scheme is bounded so a long `a.a.a…` run cannot make the scan quadratic.
_URL_USERINFO = re.compile(r"(?i)\b[a-z][a-z0-9+.-]{0,30}://[^\s:/@]*:(?P<value>[^\s/@]+)@[A-Za-z0-9\[]")

# Values that stand for a secret instead of being one.
_PLACEHOLDER_WORDS = re.compile(
    r"(?i)changeme|change[_-]me|example|placeholder|redacted|dummy|sample|your[_-]?[a-z]|"
    r"replace|xxx|\*\*\*|\.\.\.|…|<|>|\{\{|\}\}|\$\{|\$\(|%[A-Za-z_]+%|vault|secret[_-]?manager|"
    r"fixme|todo|not[_-]?set|notreal|^(?:none|null|nil|true|false|empty|unset|required|optional|"
    r"n/a|tbd|hidden|masked|secret|password|passwd|token|pass)$"
)
_PLACEHOLDER_SHAPES = re.compile(
    r"^(?:"
    r"\$[A-Za-z_{(]"                                    # $VAR, ${VAR}, $(cmd)
    r"|[\[{(<]"                                          # YAML flow, <…>, (…)
    r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$"                   # an env var name: GITHUB_TOKEN
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(.*)?$"       # secrets.GITHUB_TOKEN, os.environ.get(
    r"|[A-Za-z_][\w.]*\("                                # get_password()
    r"|(?:\.{1,2}|~)?[/\\]"                              # /etc/x, ./x, ~/x
    r"|[A-Za-z]:\\"                                      # C:\x
    r"|[a-z][a-z0-9+.-]*://[^@]*$"                       # a URL without userinfo
    r"|v?\d[\d.:/T+-]*Z?$"                               # a date, time or version
    r"|[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]{1,5}$"            # a relative path to a file
    r"|[A-Za-z]+(?:/[A-Za-z]+)+$"                        # words joined by slashes: OAuth/OIDC, read/write
    r"|[A-Za-z_][\w.]*=\S*$"                            # a nested setting (judged on its own)
    r")"
)
_RUNS = re.compile(r"[^\s._-]+")
_WORDS = re.compile(r"[A-Z]?[a-z]{3,}")


@dataclass(frozen=True)
class SecretHit:
    line: int
    kind: str
    column: int


def shannon_entropy(value: str) -> float:
    """Bits per character of `value`'s own character distribution."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values()) if n else 0.0


def _char_classes(value: str) -> tuple[int, bool, bool]:
    """(how many of lower/upper/digit/symbol occur, has a digit, has a symbol);
    `-`, `_` and `.` are word separators here, not symbols, so `see-the-vault` is one class."""
    lower = any(c.islower() for c in value)
    upper = any(c.isupper() for c in value)
    digit = any(c.isdigit() for c in value)
    symbol = any(not c.isalnum() and c not in "-_." for c in value)
    return lower + upper + digit + symbol, digit, symbol


def looks_secret(value: str, kind: str) -> bool:
    """A real-looking secret, not a placeholder, a reference, a path or a word.

    Passwords are short and human-made (`hunter2hunter2`): 8+ characters with a digit
    or symbol. Tokens and keys are machine-made: 10+ characters and high entropy."""
    if len(value) < 8 or any(c.isspace() for c in value):
        return False
    if _PLACEHOLDER_SHAPES.match(value) or _PLACEHOLDER_WORDS.search(value):
        return False
    classes, digit, symbol = _char_classes(value)
    if classes < 2 or not (digit or symbol):
        return False
    if kind == "password":
        return shannon_entropy(value) >= 2.5
    # A machine-made token has a long unbroken random run (`gh-cli-v2.1` has none) and is
    # not mostly words (`AzureADv2Provider` is a name, not a key).
    run = max(_RUNS.findall(value), key=len, default="")
    words = sum(len(w) for w in _WORDS.findall(value))
    return (len(value) >= 10 and shannon_entropy(value) >= 3.0 and (digit or classes >= 3)
            and len(run) >= 8 and _char_classes(run)[0] >= 2 and words <= 0.6 * len(value))


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


def _assignment(line: str) -> tuple[str, int] | None:
    for m in _assignments(line):
        kind = next((kind for kind, ending in _KEY_KINDS if ending.search(m["key"])), None)
        if kind is None:
            continue
        value = m["value"]
        if value[0] in "\"'`":
            value = value[1:-1]
        else:
            value = value.rstrip(".)]}:")
        if looks_secret(value, kind):
            return f"{kind} assignment", m.start() + 1
    for m in _URL_USERINFO.finditer(line):
        if looks_secret(m["value"], "password"):
            return "password in URL", m.start() + 1
    if not any(w in line.lower() for w in ("pass", "pw", "pin")):
        return None
    for m in _PROSE_PASSWORD.finditer(line):
        value = (m["value"] or m["value2"] or "").rstrip(".)]}:,;")
        if looks_secret(value, "password"):
            return "password in prose", m.start() + 1
    return None


# The gate: a cheap regex run once over the LOWER-CASED text. Most memory files contain
# none of these, and most lines that name a password or token do so in prose, with no
# `:`/`=` right after the word. Lower-casing once and matching case-sensitively, with
# every branch starting on a literal, is several times faster than re.I.
_KEY_TAIL = r"s?(?:[_-]?\d+)?[\"'`*\]]{0,3}[ \t]*[:=]"  # what may follow a key word before `:`/`=`
# Token-format literals and key words, grouped by first letter (fewer branches to try per
# position): AKIA… AIza…, secret, sk-, sk_live, gh?_, github_pat_, PRIVATE KEY, xox, …
_PROSE_VERB = r"\s+(?:(?:for|of|on|to)\s[^.,;:=\n]{1,40}?\s)?(?:is|was|=|are|becomes|(?:has been |got )?(?:set|changed|reset|rotated) to)\s"
_QUICK = re.compile(
    rf"a(?:kia|sia|bia|cca|iza|uth(?:orization)?{_KEY_TAIL}|ccountkey=|pi_org_)|s(?:ecret|k-|k_live|k[0-9a-f]{{32}}|ig=|g\.)"
    rf"|rk_live|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|oas|cbt|imt|ft|soat)-|npm_|pypi-ageic|q~|hf_|dckr_"
    rf"|p(?:rivate key|ass(?:word|wd|phrase)?(?:{_KEY_TAIL}|{_PROSE_VERB})|wd(?:{_KEY_TAIL}|{_PROSE_VERB})"
    rf"|w{_PROSE_VERB}|in{_PROSE_VERB})|shp(?:at|ss|ca|pa)_|dapi[0-9a-f]|discord"
    rf"|xox|hooks\.slack|eyj|key(?:{_KEY_TAIL}|-[0-9a-f])|token{_KEY_TAIL}|cred(?:s|entials?)?{_KEY_TAIL}"
    r"|://[^\s/@]*:[^\s/@]+@"
    r"|with (?:the )?password\s|us(?:e|ing) (?:the )?password\s"
)
ALLOW_MARK = "tiergit: allow-secret"


def _gated_lines(text: str) -> list[int]:
    """0-based indexes (in text.splitlines()) of the lines the gate lets through."""
    low = text.lower()
    first = _QUICK.search(low)
    if first is None:
        return []
    # lower() keeps every line break, so low's lines are text's lines, in order.
    ends = list(accumulate(len(line) for line in low.splitlines(keepends=True)))
    return sorted({bisect_right(ends, m.start()) for m in _QUICK.finditer(low, first.start())})


def scan(text: str) -> list[SecretHit]:
    """Every credential-looking string, by line. A line ending with the allow mark is skipped."""
    indexes = _gated_lines(text)
    if not indexes:
        return []
    lines = text.splitlines()
    hits = []
    for i in indexes:
        line = lines[i]
        if ALLOW_MARK in line:
            continue
        low = line.lower()
        for kind, pattern in PATTERNS:
            if NEEDLES.get(kind, "") not in low:
                continue
            m = pattern.search(line)
            if m:
                hits.append(SecretHit(i + 1, kind, m.start() + 1))
                break
        else:
            found = _assignment(line)
            if found:
                hits.append(SecretHit(i + 1, found[0], found[1]))
    return hits


_CUT = re.compile(r"[=:]\s*|\s")


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
