"""Does a value look like a real secret? The judgement of an assignment's or a prose password's
value: not a placeholder (`${DB_PASSWORD}`, `<your key>`, `changeme`), a reference, a path, a
date or a word, and random enough for its kind. Pure; regexes compiled on first use."""
from __future__ import annotations

import math
from collections import Counter

from tiergit.core.secretrules import Lazy

# Values that stand for a secret instead of being one.
_PLACEHOLDER_WORDS = Lazy(
    r"(?i)changeme|change[_-]me|example|placeholder|redacted|dummy|sample|your[_-]?[a-z]|"
    r"replace|xxx|\*\*\*|\.\.\.|…|<|>|\{\{|\}\}|\$\{|\$\(|%[A-Za-z_]+%|vault|secret[_-]?manager|"
    r"fixme|todo|not[_-]?set|notreal|^(?:none|null|nil|true|false|empty|unset|required|optional|"
    r"n/a|tbd|hidden|masked|secret|password|passwd|token|pass)$"
)
_PLACEHOLDER_SHAPES = Lazy(
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
    r"|[A-Za-z_][\w.]*=(?!=*$)\S*$"                     # a nested setting (judged on its own), not a = pad
    r")"
)
_RUNS = Lazy(r"[^\s._-]+")
_WORDS = Lazy(r"[A-Z]?[a-z]{3,}")


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
