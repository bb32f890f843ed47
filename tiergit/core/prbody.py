"""The promotion pull-request body, in Renovate's shape: header, the "⚠ changes a safeguard" section
first, the table, details, how to reject."""
from __future__ import annotations

from tiergit.core.prtext import wiki_text

CAREFUL = "⚠ changes a safeguard — read carefully"

MARKER = "<!-- tiergit:promotion -->"


def _cell(text: str, n: int = 90) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= n else text[: n - 1] + "…"


MAX_BODY = 60_000          # GitHub refuses pull-request bodies over 65,536 characters


def _reason(r) -> str:
    also = getattr(r, "also", None)
    return r.verdict.reason + (f"; also in {', '.join(f'`{a}`' for a in also)}" if also else "")


def _table(rows, cap: int, why=_reason, clean: bool = True) -> list[str]:
    out = ["| item | kind | score | recalls | source | reason |", "| --- | --- | ---: | ---: | --- | --- |"]
    for r in rows[:cap]:
        c = r.cand
        text = wiki_text(c.text, c.kind) if clean else c.text
        out.append(f"| `{c.id}` {_cell(text)} | {c.kind} | {r.score.total:.2f} | {r.recalls} | "
                   f"`{c.source}:{c.line}` | {_cell(why(r), 110)} |")
    if len(rows) > cap:
        out += ["", f"…and {len(rows) - cap} more: `tiergit promote --json` lists every candidate."]
    return out


def render(promo, tier_chart: str, themes: list[tuple[str, int]] | None = None) -> str:
    """Markdown for `--pr-body FILE` (identical for identical input), under GitHub's size limit.
    `tier_chart` is the store's Mermaid tier-size block (`statusmodel.mermaid_tier_sizes`)."""
    charts = ["", "### Tier sizes", "", tier_chart.strip()]
    caps = (200, 100)
    while True:
        text = _render(promo, themes, charts, *caps)
        if len(text) <= MAX_BODY or caps == (0, 0):
            return text
        caps = (caps[0] // 2, caps[1] // 2)


def _render(promo, themes, charts: list[str], cap_promoted: int, cap_rejected: int) -> str:
    acc = promo.accepted
    rej = [r for r in promo.rejected if not r.settled and not getattr(r, "folded", False)]
    settled = sum(r.settled for r in promo.rejected)
    targets = sorted({r.target for r in acc})
    s = promo.settings
    lines = [
        MARKER,
        f"## tiergit: promote {len(acc)} item(s) into reviewed memory",
        "",
        f"This PR was made by `tiergit promote --apply` on {promo.today.isoformat()}. It appends "
        f"{len(acc)} item(s) that passed the graduation gate (score ≥ {s.min_score:.2f}, "
        f"recalls ≥ {s.min_recalls}, age ≥ {s.min_age_days} days, durable kind) to "
        + (", ".join(f"`{t}`" for t in targets) if targets else "no file") + ".",
        "",
    ]
    careful = [r for r in acc if getattr(r.verdict, "safeguard", None)]
    plain = [r for r in acc if r not in careful]
    if careful:
        lines += [f"### {CAREFUL}", "",
                  f"{len(careful)} item(s) change how agents treat a safeguard (review, approval, tests, hooks, CI, "
                  "credentials, permissions, TLS, dependencies, destructive commands, where instructions come from), "
                  "or are written in another language than the store. Agents will follow them as team rules: "
                  "read each one, its HTML comments and link targets included, before merging.", ""]
        lines += _table(careful, cap_promoted, why=lambda r: r.verdict.safeguard + _reason(r)[len(r.verdict.reason):]) + [""]
    if plain:
        lines += ["### Promoted", ""] + _table(plain, cap_promoted)
    elif not careful:
        lines.append("_No candidate passed the gate this time._")
    lines += [
        "",
        "### How to reject an item",
        "",
        "Delete its line (it ends with its id, `^m-…`) from the wiki file in this PR before merging, "
        "or edit the text if it needs rewording. After the merge, `tiergit review sync` records every "
        "item still present as accepted and every deleted one as rejected; a rejected item is never "
        "proposed again unless its text changes. Closing the PR without merging rejects nothing: "
        "the items are proposed again next time.",
    ]
    if rej:
        lines += ["", "<details>", f"<summary>{len(rej)} candidate(s) not promoted, with the reason</summary>", ""]
        lines += _table(rej, cap_rejected, clean=False) + ["", "</details>"]
    if settled:
        lines += ["", f"{settled} item(s) already promoted, pending or rejected in review are not listed."]
    if themes:
        lines += ["", "### Recurring themes this week", ""]
        lines += [f"- {name} ({n} entries)" for name, n in themes]
    lines += charts
    lines += ["", "---", "Scores and reasons: `tiergit promote --explain m-…`. "
              "Docs: docs/promotion.md."]
    return "\n".join(lines) + "\n"
