"""What a memory item cites from the repository it lives in, and whether that still exists.

An item that names a repository path (`src/auth/token.ts`, `package.json`) or a code symbol
(`FooService`, `parse_config()`, `ControlSkin.BorderStyle`) is linked to the tree. It is
**stale** when what it cites existed in the repository when the item was written (its
anchor commit) and no longer does at HEAD: a path deleted or renamed (git's rename
detection says to what), a symbol that occurs nowhere in the tree any more. A citation
of something that was never in the repository (a library's class, a path on another
machine) says nothing about staleness, so it is never flagged: that is what keeps the
verdict precise.

Pure: texts and the facts `shell/treefacts.py` gathered in; citations and verdicts out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

CODE_SPAN_RE = re.compile(r"`([^`\n]{2,200})`")
# A repo-relative path: segments of word characters, dots and dashes, at least one slash or an extension.
PATH_RE = re.compile(r"(?<![\w/.@:~-])((?:\.?[\w-][\w.-]*/)+[\w.-]*[\w-]|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9})"
                     r"(?![\w/@-])")
EXTENSIONS = frozenset("""py pyi ts tsx js jsx mjs cjs json jsonc yml yaml toml ini cfg md mdx txt cs csproj sln
fs vb go rs java kt kts scala rb php swift m mm c cc cpp cxx h hh hpp sh bash zsh ps1 psm1 sql graphql proto
html htm css scss sass less vue svelte xml xaml razor cshtml lock env dockerfile tf bicep gradle props targets
ipynb r jl lua dart ex exs erl hs ml elm clj nix bat cmd mk cmake""".split())
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
SYMBOL_SPAN_RE = re.compile(rf"^({IDENT}(?:(?:\.|::|->|#){IDENT})*)(?:\(\))?$")
CAMEL_RE = re.compile(r"(?<![\w.`/-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z]+[a-z0-9]*(?:[A-Z][a-z0-9]*){2,})(?![\w`])")
CALL_RE = re.compile(rf"(?<![\w.`])({IDENT}(?:\.{IDENT})*)\(\)")
SNAKE_RE = re.compile(r"(?<![\w.`/-])([a-z][a-z0-9]*(?:_[a-z0-9]+){2,})(?![\w`/-])")
MIN_SYMBOL = 4
# Product and tool names that look like code but are not the repository's own symbols.
NOT_SYMBOLS = frozenset("""GitHub GitLab TypeScript JavaScript PowerShell PostgreSQL MySQL SQLite MongoDB OpenClaw
OpenAI ChatGPT DevOps macOS iOS iPhone iPad YouTube LinkedIn WhatsApp WeChat LaTeX OAuth NuGet PyPI VSCode
DocFX OpenAPI GraphQL WebSocket WebSockets README CHANGELOG TODO FIXME NaN JSON YAML HTML CSS""".split())


@dataclass(frozen=True)
class Citations:
    paths: tuple[str, ...]
    symbols: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.paths or self.symbols)


def _is_path(token: str) -> bool:
    token = token.strip(".")
    if not token or "//" in token or token.startswith(("/", "~")):
        return False
    last = token.rstrip("/").rsplit("/", 1)[-1]
    parts = [p for p in token.split("/") if p]
    if any(p.isdigit() for p in parts) or len(parts) > 12:
        return False
    ext = last.rsplit(".", 1)[-1].lower() if "." in last else ""
    if "/" not in token:
        return ext in EXTENSIONS and not last[: -len(ext) - 1].replace("-", "").isdigit()
    if ext:
        return ext in EXTENSIONS or len(parts) >= 3
    return len(parts) >= 2 and token.endswith("/") or len(parts) >= 3


def _path_token(raw: str) -> str:
    token = re.sub(r":\d+(?:-\d+)?$", "", raw.strip().strip("'\""))   # path:line
    return token[2:] if token.startswith("./") else token


def _symbol_parts(span: str) -> list[str]:
    return [p for p in re.split(r"\.|::|->|#", span) if len(p) >= MIN_SYMBOL and p not in NOT_SYMBOLS]


def cites(text: str) -> Citations:
    """Every repository path and code symbol the text names, in order of appearance, once each."""
    paths: list[str] = []
    symbols: list[str] = []
    spans = CODE_SPAN_RE.findall(text)
    for span in spans:
        span = span.strip()
        if SYMBOL_SPAN_RE.match(span) and "/" not in span:
            if "." in span and _is_path(span):   # `package.json` is a file, not a member access
                paths.append(_path_token(span))
            else:
                symbols += _symbol_parts(SYMBOL_SPAN_RE.match(span).group(1))  # type: ignore[union-attr]
        elif " " not in span and _is_path(_path_token(span)):
            paths.append(_path_token(span))
    prose = CODE_SPAN_RE.sub(" ", text)
    prose = re.sub(r"\b\w+://\S+", " ", prose)                       # URLs are not repository paths
    for m in PATH_RE.finditer(prose):
        if _is_path(_path_token(m.group(1))):
            paths.append(_path_token(m.group(1)))
    for regex in (CALL_RE, CAMEL_RE, SNAKE_RE):
        for m in regex.finditer(prose):
            symbols += _symbol_parts(m.group(1))
    return Citations(tuple(dict.fromkeys(p.rstrip("/") for p in paths if p.rstrip("/"))),
                     tuple(dict.fromkeys(s for s in symbols if s not in NOT_SYMBOLS)))


@dataclass(frozen=True)
class TreeFacts:
    """What one commit's tree holds: every tracked path, and which of the asked words occur in it."""
    paths: frozenset[str]
    words: frozenset[str]


def _matches(cited: str, paths: frozenset[str]) -> list[str]:
    """Tree paths a citation names: the path itself, a path ending in it, or the files under a folder."""
    if cited in paths:
        return [cited]
    tail, folder = "/" + cited, cited + "/"
    return sorted(p for p in paths if p.endswith(tail) or p.startswith(folder) or ("/" + folder) in "/" + p)[:20]


@dataclass(frozen=True)
class StaleCitation:
    cited: str
    kind: str                 # "path" | "symbol"
    reason: str
    renamed_to: str | None = None


def judge(found: Citations, then: TreeFacts, now: TreeFacts, renames: dict[str, str]) -> list[StaleCitation]:
    """The citations that were in the tree at the anchor (`then`) and are gone at HEAD (`now`).
    `renames`: old path -> new path between the two, from git's rename detection."""
    out: list[StaleCitation] = []
    for cited in found.paths:
        if _matches(cited, now.paths):
            continue
        before = _matches(cited, then.paths)
        if not before:
            continue   # never a path of this repository: says nothing
        moved = next((renames[p] for p in before if p in renames), None)
        if moved is not None:
            new = moved if before == [cited] else cited.replace(before[0].rsplit("/", 1)[-1],
                                                                moved.rsplit("/", 1)[-1])
            out.append(StaleCitation(cited, "path", f"cites {cited}, renamed to {moved}", new))
        else:
            out.append(StaleCitation(cited, "path", f"cites {cited}, which was deleted"))
    for word in found.symbols:
        if word in then.words and word not in now.words:
            out.append(StaleCitation(word, "symbol", f"cites `{word}`, which no longer occurs in the repository"))
    return out


def rewrite(text: str, stale: list[StaleCitation]) -> str | None:
    """The item with each renamed path rewritten to its new name (None when nothing was renamed)."""
    new = text
    for s in stale:
        if s.kind == "path" and s.renamed_to:
            new = new.replace(s.cited, s.renamed_to)
    return new if new != text else None
