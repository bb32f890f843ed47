"""Which command fixes an over-budget file of a tier: one per tier shape, named in every hint.

Pure and import-free (the pre-commit hook path imports it): costs a few string checks.
"""
from __future__ import annotations


def fix_command(tier) -> str:
    """The command that brings a file of `tier` back under its budget, by the tier's shape."""
    if getattr(tier, "in_place", False):
        # the framework's own file: tiergit never rewrites it, the framework's hygiene trims it
        return "`squad nap` (Squad archives its own old decisions and entries; tiergit reads this file in place)"
    if tier.lifetime == "session":
        # hot is reset by compaction into the next tier; nothing else shrinks it.
        return f"`tiergit session end` (compacts {tier.name} into {tier.next or 'the next tier'})"
    if tier.review == "pull-request":
        # A reviewed tier is only cut through a reviewed change, like a promotion.
        return ("`tiergit audit --apply` on the promotion branch (proposes the oldest or deadest items "
                "for the archive; the cut is reviewed in the pull request)")
    if "{date}" in tier.path:
        return "`tiergit archive --apply` (moves notes past their TTL to the archive)"
    return "`tiergit check --fix` (archives the oldest entries until the file fits)"


def fixes_for(config, paths: list[str]) -> str:
    """`tier: command` for the tiers of `paths`, once per tier, joined with "; "."""
    seen: dict[str, str] = {}
    for rel in paths:
        match = config.tier_for(rel)
        if match and match[0].name not in seen:
            seen[match[0].name] = f"{match[0].name}: {fix_command(match[0])}"
    return "; ".join(seen.values())


def pinned_over_note(config_name: str, tier_name: str, who: str, measured: dict[str, int],
                     limits: dict[str, float]) -> str:
    """The note for a file over max with nothing left to archive but pinned (undated)
    sections, which are never archived: `check --fix` cannot help, a larger budget or a
    hand edit can. Names the budget values that fit the file."""
    over = {m: v for m, v in measured.items() if m in limits and v > limits[m]}
    sizes = ", ".join(f"{v} {m} > max {int(limits[m])}" for m, v in over.items())
    raise_to = ", ".join(f"tiers.{tier_name}.budget.{m}: {v}" for m, v in over.items())
    return (f"{who}: {tier_name} is over budget ({sizes}) with every dated entry archived: its pinned "
            f"(undated) sections stay and are never archived; set {raise_to} (or more) in "
            f"{config_name}, or shorten those sections by hand (move lasting knowledge to the wiki)")

