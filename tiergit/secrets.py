"""Credential detection for memory files: fast regexes for the common token formats.

detect-secrets' plugins cover the same formats but cost ~0.2 s to import on every
commit; these patterns follow its keyword-free plugins (AWS, GitHub, Slack, private
keys, OpenAI/Anthropic, Stripe, Google, JWT) so the hook stays fast.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

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
]
# A cheap pre-filter: most memory files contain none of these substrings.
_QUICK = re.compile(r"AKIA|ASIA|ABIA|ACCA|secret|gh[pousr]_|github_pat_|PRIVATE KEY|xox|hooks\.slack|sk-|sk_live|rk_live|AIza|eyJ", re.I)
ALLOW_MARK = "tiergit: allow-secret"


@dataclass(frozen=True)
class SecretHit:
    line: int
    kind: str
    column: int


def scan(text: str) -> list[SecretHit]:
    """Every credential-looking string, by line. A line ending with the allow mark is skipped."""
    if not _QUICK.search(text):
        return []
    hits = []
    for n, line in enumerate(text.splitlines(), 1):
        if ALLOW_MARK in line or not _QUICK.search(line):
            continue
        for kind, pattern in PATTERNS:
            m = pattern.search(line)
            if m:
                hits.append(SecretHit(n, kind, m.start() + 1))
                break
    return hits
