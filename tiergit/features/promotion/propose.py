"""`propose`: an agent stages one line for the wiki. The line faces every gate check it would
face in `promote` at once (and is refused with the reason), then goes to the staging file
with a `tiergit:forced` comment, so the next `promote --apply` takes it past the score gate
into the reviewed pull request."""
from __future__ import annotations

from datetime import date

from tiergit.core import kinds, parse, textlang
from tiergit.core.candidate import norm_key, slug
from tiergit.core.configschema import check_slug
from tiergit.core.dupindex import DupIndex
from tiergit.errors import TiergitError
from tiergit.features.plan import Plan
from tiergit.features.promotion.candidates import default_staging, gather
from tiergit.features.promotion.gate import (
    careful_by_content,
    command_with_metadata,
    credential,
    instructs_model,
    junk,
    raw_output,
    weakens_safeguard,
)
from tiergit.shell import clock


def propose(store, topic: str, text: str, kind: str, agent: str | None, today: date | None = None) -> Plan:
    """Stage an agent's wiki write: the next `promote --apply` takes it past the score gate."""
    check_slug("topic", topic)
    if agent is not None:  # --agent '' is a mistake, not "no agent"
        check_slug("agent", agent)
    one_line = " ".join(text.split())
    if not one_line:
        raise TiergitError("propose: the text is empty", 'pass the knowledge to record, e.g. propose --topic auth "…"')
    if kind not in kinds.DURABLE_KINDS:
        raise TiergitError(f"propose: kind {kind!r} is not durable",
                           f"use one of: {', '.join(sorted(kinds.DURABLE_KINDS))}")
    # Every gate check a proposed item still faces, refused here at once instead of dropped by `promote`.
    # The safeguard judgement reads the text as given (HTML comments and link targets included).
    corpus = gather(store, set(), blame=False)
    for problem in (credential(one_line), instructs_model(one_line), weakens_safeguard(text), raw_output(one_line),
                    command_with_metadata(one_line, one_line), junk(one_line),
                    None if kind == "correction" else _in_wiki(store, corpus, one_line)):
        if problem:
            raise TiergitError(f"propose: refused: {problem}", "write the distilled knowledge, without it")
    today = today or clock.today()
    rel = default_staging(store)
    path = store.repo / rel
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    who = f" by={slug(agent)}" if agent else ""
    line = f"- [{kind}] {one_line} <!-- tiergit:forced topic={topic} kind={kind}{who} date={today.isoformat()} -->\n"
    base = old if old is not None else "# Staged for promotion\n\n"
    new = base + ("" if base.endswith("\n") else "\n") + line
    plan = Plan("tiergit propose")
    plan.add(rel, new, old, reason=f"staged for topic {topic}: skips the score gate, still reviewed")
    # The safeguard word lists hold some languages; an item in another than the store's is read carefully too.
    why = careful_by_content(text) or \
        textlang.foreign(one_line, textlang.store_language(c.text for c in corpus.candidates))
    if why:
        plan.notes.append(f"{WARNING}: {why}; the promotion PR lists it first, in its own section")
    plan.notes.append(f"id {parse.item_id(line)[0]}; the next `tiergit promote --apply` puts it in the promotion PR")
    return plan


WARNING = "⚠ changes a safeguard — read carefully"


def warning(plan: Plan) -> str | None:
    """The safeguard warning of a `propose` plan, if any (the MCP tool returns it)."""
    return next((n for n in plan.notes if n.startswith(WARNING)), None)


def _in_wiki(store, corpus, text: str) -> str | None:
    """The near-duplicate rule `propose` never skips: the wiki or staged item it repeats, if any
    (`corpus`: the store's candidates and wiki, one read of the store from the parse cache)."""
    index, staged = corpus.wiki, DupIndex()
    for c in corpus.candidates:
        if c.staged:
            staged.add(c.mention_key or norm_key(c.text), f"{c.source}:{c.line}")
    key = norm_key(text)
    hit = index.find(key, store.config.gate.duplicate_ratio)
    if hit:
        return f"near-duplicate of {hit}; edit that item instead"
    hit = staged.find(key, store.config.gate.duplicate_ratio)
    return f"near-duplicate of {hit}, already staged for review" if hit else None
