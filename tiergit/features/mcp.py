"""The MCP server behind `tiergit mcp`: the store as MCP tools and resources for agents, over stdio (the `mcp` extra).

Tools: recall, context, propose (preview unless apply), session_start,
session_end, status; resources: tiergit://hot/{agent}, tiergit://cold/{agent},
tiergit://wiki/{topic} (the command is tiergit.commands.mcp). Every tool opens the store afresh and calls the same
functions as the CLI, so the rules are the same: repo root from --repo or the
working folder, locks on every write, secret and injection screening on
propose and session end. A TiergitError becomes an MCP tool error carrying the
message and its hint. The `mcp` package is imported only when this command
runs (never by the hook path or other commands).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

try:    # pydantic (under the mcp SDK) needs typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict
except ImportError:     # no mcp extra: the command says so when it runs; --help still works
    from typing import TypedDict

from tiergit.errors import TiergitError
from tiergit.features import spawn_carried
from tiergit.features.mcp_docs import PARAMETERS, TOOL_HINTS

Situation = Literal["new", "resume", "debug", "spec", "onboard", "incident"]
Kind = Literal["decision", "rule", "fact", "correction"]


class RecallHit(TypedDict):
    rank: int
    relevance: float
    score: float
    id: str
    path: str
    line: int
    entry: str
    kind: str
    tier: str
    date: str | None
    matched: list[str]
    snippet: str
    text: str


class RecallResult(TypedDict):
    query: str
    hits: list[RecallHit]


class KnowledgeItem(TypedDict):
    id: str
    path: str
    line: int
    tier: str
    tokens: int


class ContextResult(TypedDict):
    agent: str
    prompt: str
    tokens: int
    files: list[str]
    knowledge: list[KnowledgeItem]
    notes: list[str]


class ProposeResult(TypedDict):
    applied: bool
    preview: str
    changes: list[str]
    warning: str | None      # "⚠ changes a safeguard — read carefully: …" when it touches one


class SessionResult(TypedDict):
    agent: str
    hot: str
    cold: str
    report: dict[str, Any]


class TierRow(TypedDict):
    tier: str
    files: int
    bytes: int
    tokens: int
    health: str


class StatusResult(TypedDict):
    tiers: list[TierRow]


def build_server(repo: Path):
    """The MCPServer for the store at `repo` (tools and resources registered)."""
    from mcp.server.mcpserver import MCPServer

    from tiergit import __version__

    server = MCPServer("tiergit", version=__version__, instructions=(
        "Tiered team memory in git. Start with session_start, recall before re-solving, write labelled "
        "items to your hot file, propose durable knowledge for review, finish with session_end."))
    from mcp.types import ToolAnnotations

    for fn in (recall, context, propose, session_start, session_end, status):
        assert fn.__name__ in TOOLS
        title, read_only, destructive, idempotent = TOOL_HINTS[fn.__name__]
        server.add_tool(_bound(fn, repo), name=fn.__name__, title=title, description=fn.__doc__,
                        annotations=ToolAnnotations(title=title, read_only_hint=read_only,
                                                    destructive_hint=destructive, idempotent_hint=idempotent,
                                                    open_world_hint=False))
    _resources(server, repo)
    return server


def _bound(fn, repo: Path):
    """`fn` with the store opened for it and TiergitError turned into a ToolError (message + hint)."""
    import functools
    import inspect
    import typing

    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def call(**kwargs):
        from tiergit.shell.store import Store

        try:
            return fn(Store.open(repo), **kwargs)
        except TiergitError as exc:
            raise ToolError(exc.message + (f" (hint: {exc.hint})" if exc.hint else "")) from None

    # The SDK builds input/output schemas from the signature: give it real types, not the module's
    # postponed (string) annotations, and without the `store` parameter the wrapper supplies.
    from pydantic import Field

    hints = typing.get_type_hints(fn)
    described = PARAMETERS.get(fn.__name__, {})
    for name, text in described.items():
        hints[name] = typing.Annotated[hints[name], Field(description=text)]
    sig = inspect.signature(fn)
    params = [p.replace(annotation=hints[p.name]) for p in list(sig.parameters.values())[1:]]
    call.__signature__ = sig.replace(parameters=params, return_annotation=hints["return"])
    call.__annotations__ = {k: v for k, v in hints.items() if k != "store"}
    del call.__wrapped__
    return call


def recall(store, query: str, agent: str | None = None, tiers: list[str] | None = None,
           limit: int = 10) -> RecallResult:
    """Search cold history, the wiki and the archive for items about `query`, best first. Call it before
    changing a file the memory mentions, when a test fails, or when a name is unfamiliar; identifiers,
    paths and error text make good queries. Logs each hit (recalled items count toward promotion). Each
    hit has its id, path:line, matched words, best sentence and whole text. With `agent`, items that agent's
    last `context` prompt carried are left out: it holds them already."""
    from tiergit.features.recall import recall as run_recall

    hits, _stats = run_recall(store, query, agent=agent, tiers=tiers, limit=limit,
                              leave_out=spawn_carried.leave_out(store, agent))
    keys = RecallHit.__annotations__
    return {"query": query, "hits": [{k: v for k, v in h.as_dict().items() if k in keys} for h in hits]}


def context(store, agent: str | None = None, task: str | None = None, situation: Situation | None = None,
            include_cold: bool = False, include_wiki: list[str] | None = None) -> ContextResult:
    """The spawn prompt for an agent: hot memory, what `task` will likely need from memory (relevant and
    recent items, packed within a budget), ending with the wiki's topics, what was left out and when to
    call `recall`; whole tiers with `situation` (resume/debug/incident add cold, spec/onboard/incident add wiki)."""
    from tiergit.features import context as ctx_mod
    from tiergit.features.session import resolve
    from tiergit.shell.tokens import count_text

    agent = agent or resolve(store.config, None).agent
    spawn = ctx_mod.build(store, agent, include_cold=include_cold, include_wiki=include_wiki or [],
                          situation=situation, task=task)
    from tiergit.features.promotion.served import log_served

    log_served(store, agent, task, spawn.knowledge)   # served items count as recalls, as in `tiergit context`
    picks = spawn.knowledge.picks if spawn.knowledge else []
    spawn_carried.record(store, agent, spawn.knowledge)   # its recalls then bring what the prompt lacks
    return {"agent": agent, "prompt": spawn.prompt, "tokens": count_text(spawn.prompt, store.config.tokenizer).tokens,
            "files": [p.path for p in spawn.parts], "notes": spawn.notes + spawn.over_budget,
            "knowledge": [{"id": p.id, "path": p.path, "line": p.line, "tier": p.tier, "tokens": p.tokens}
                          for p in picks]}


def propose(store, text: str, topic: str, kind: Kind = "rule", agent: str | None = None,
            apply: bool = False) -> ProposeResult:
    """Propose durable knowledge for the wiki topic: a preview unless apply=true, which stages it for the
    next promotion pull request (a human reviews it). Credentials, prompt injections and text that weakens a safeguard (review, tests, hooks, CI, secrets, TLS…) are refused; text that touches one comes back with a warning."""
    from tiergit.features.promotion.propose import propose as stage
    from tiergit.features.promotion.propose import warning

    plan = stage(store, topic, text, kind, agent)
    if apply:
        plan.apply(store.repo)
    return {"applied": apply, "preview": plan.preview(), "changes": [c.path for c in plan.changes],
            "warning": warning(plan)}


def session_start(store, agent: str | None = None, task: str | None = None, force: bool = False) -> SessionResult:
    """Start a session: write a fresh hot file for the agent, carrying over open blockers and todos."""
    from tiergit.features import session as session_mod

    result = session_mod.start(store.config, agent, task, force)
    r = result.report
    return {"agent": r["agent"], "hot": r["hot"], "cold": r.get("cold", ""), "report": _plain(r)}


def session_end(store, agent: str | None = None) -> SessionResult:
    """End the session: compact the hot file into one dated cold entry (labelled items verbatim), reset hot."""
    from tiergit.features import session as session_mod

    from tiergit.features.promotion import recall_store

    result = session_mod.end(store.config, agent, [])
    copied, _where, _note = recall_store.sync(store)   # an OpenClaw workspace: its recalls, for the nightly promotion
    r = result.report
    return {"agent": r["agent"], "hot": r["hot"], "cold": r["cold"],
            "report": {**_plain(r), "openclaw_recalls_copied": copied}}


def status(store) -> StatusResult:
    """Each tier's files, bytes, tokens and worst health (healthy / warning / critical)."""
    from tiergit.features.statusmodel import collect

    data = collect(store)
    return {"tiers": [{"tier": t.tier, "files": t.files, "bytes": t.bytes, "tokens": t.tokens,
                       "health": t.health} for t in data.tiers]}


def _plain(report) -> dict:
    """A session report (a dict, or session end's typed EndReport) as plain JSON data."""
    import json

    data = report.as_dict() if hasattr(report, "as_dict") else report
    return json.loads(json.dumps(data, default=str))


def _resources(server, repo: Path) -> None:
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

    def reader(tier: str, key: str):
        def read(name: str) -> str:
            from tiergit.core import rawtext
            from tiergit.core.configschema import check_slug
            from tiergit.shell.store import Store

            try:
                check_slug(key, name)
                store = Store.open(repo)
                if tier not in store.config.tiers:
                    raise ResourceNotFoundError(f"this store has no {tier} tier")
                rel = store.config.tier_file(tier, **{key: name}).relative_to(store.repo).as_posix()
                if not (store.repo / rel).is_file():
                    raise ResourceNotFoundError(f"{rel} does not exist")
                return rawtext.decode(store.read_bytes(rel), rel, store.config.limits["max_file_bytes"])
            except TiergitError as exc:
                raise ResourceError(exc.message) from None
        return read

    for tier, key in (("hot", "agent"), ("cold", "agent"), ("wiki", "topic")):
        server.resource(f"tiergit://{tier}/{{{key}}}", name=f"{tier} tier", mime_type="text/markdown",
                        description=f"The {tier} tier file of one {key}.")(_named(reader(tier, key), key))


def _named(fn, key: str):
    """A resource function whose single parameter is called `key` (the SDK matches URI params by name)."""
    def agent(agent: str) -> str:
        return fn(agent)

    def topic(topic: str) -> str:
        return fn(topic)

    return agent if key == "agent" else topic


TOOLS = ("recall", "context", "propose", "session_start", "session_end", "status")
RESOURCES = ("tiergit://hot/{agent}", "tiergit://cold/{agent}", "tiergit://wiki/{topic}")
