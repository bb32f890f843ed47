"""Store paths that .gitignore hides: found with `git check-ignore`, fixed with a scoped negation.

A repo that ignores `logs` or `**/logs/` (common in .NET and Node projects) would never
commit recalls.jsonl / reviews.jsonl, so CI's fresh clone sees no recalls and no reviews.
`check` reports it (GIT001); `init` adds negations for exactly the store paths to the root
.gitignore, in a marked block, and stops with an error when they do not take effect (a
nested .gitignore re-ignoring them). Cost: one `git check-ignore` process per call.
"""
from __future__ import annotations

from pathlib import PurePosixPath

from tiergit.core.diagnostics import Finding
from tiergit.errors import TiergitError
from tiergit.features.plan import Plan
from tiergit.shell import git

BEGIN = "# tiergit: keep the memory store tracked (a broader rule above ignores part of it)"
END = "# end tiergit"


def store_paths(cfg) -> list[str]:
    """The store's folders and the files that must reach git: tier folders, archive, logs, staging."""
    paths = {cfg.repo_path(".").rstrip("/") or "."}
    for tier in cfg.tiers.values():
        static = tier.path.split("{", 1)[0]
        folder = static if static.endswith("/") else str(PurePosixPath(static).parent)
        paths.add(cfg.repo_path(folder).rstrip("/"))
    paths.add(cfg.repo_path(cfg.archive).rstrip("/"))
    logs = cfg.repo_path(cfg.logs).rstrip("/")
    paths.update({logs, f"{logs}/recalls.jsonl", f"{logs}/reviews.jsonl"})
    if cfg.staging:
        paths.add(cfg.repo_path(cfg.staging))
    return sorted(p for p in paths if p not in ("", "."))


def _with_parents(paths: list[str]) -> list[str]:
    out = set()
    for p in paths:
        parts = PurePosixPath(p).parts
        out.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return sorted(out)


def ignored(repo, cfg) -> dict[str, str]:
    """Store paths (and their parents) git ignores -> the rule that ignores each."""
    return git.check_ignore(repo, _with_parents(store_paths(cfg)))


def findings(repo, cfg) -> list[Finding]:
    hidden = ignored(repo, cfg)
    # one finding per ignored subtree: the shallowest path the rule hides
    hidden = {p: r for p, r in hidden.items() if not any(p.startswith(q + "/") for q in hidden)}
    return [Finding(path, 1, "GIT001", "critical", f"ignored by git ({rule}): memory here is never committed",
                    "`tiergit init` adds a scoped negation to .gitignore (or add `!/" + path + "` yourself)")
            for path, rule in sorted(hidden.items())]


def plan_negation(repo, cfg) -> Plan:
    """The root .gitignore with a marked block re-including exactly the ignored store paths."""
    plan = Plan("tiergit init: .gitignore")
    hidden = ignored(repo, cfg)
    if not hidden:
        return plan
    path = repo / ".gitignore"
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    text = old or ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head.rstrip("\n") + ("\n" if head.strip() else "") + rest.split(END, 1)[1].lstrip("\n")
    # a file cannot be re-included while its folder is excluded, and git sees a folder rule
    # (`**/logs/`) only on a folder that exists: re-include the folders on the way too
    lines = [BEGIN, *(f"!/{p}" for p in _with_parents(list(hidden))), END]
    new = (text.rstrip("\n") + "\n\n" if text.strip() else "") + "\n".join(lines) + "\n"
    plan.add(".gitignore", new, old, reason=f"re-include {len(hidden)} ignored store path(s)")
    return plan


def ensure_tracked(repo, cfg) -> Plan:
    """Apply the negation (caller holds the store lock) and verify it took effect."""
    plan = plan_negation(repo, cfg)
    if plan.effective:
        plan.apply(repo)
    still = ignored(repo, cfg)
    if still:
        path, rule = next(iter(sorted(still.items())))
        raise TiergitError(f"{path}: still ignored by git ({rule}) after adding negations to .gitignore",
                           "remove that rule, or move the store (`root:` in .tiergit.yml) out of the ignored folder")
    return plan
