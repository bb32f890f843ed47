"""What an MCP client shows an agent about tiergit's tools: a description of every parameter and each
tool's annotations. Plain data, kept beside the server (features/mcp.py) so the server stays short;
tests/e2e/test_mcp.py lists the tools with the official SDK client and checks both against this.
"""
from __future__ import annotations

# What an agent reads for each tool parameter (the SDK puts it in the input schema).
PARAMETERS: dict[str, dict[str, str]] = {
    "recall": {
        "query": "What you want to know, in your own words or with the exact names: a file path, "
                 "`ClassName.member`, an error message, a ticket number; a date (\"on 12 March, 2026\") favours "
                 "what was written then. Recall before changing a file the memory mentions, when a test fails, "
                 "or when a name is unfamiliar.",
        "agent": "Only this agent's cold history (and the shared wiki), leaving out what its last `context` "
                 "prompt carried (it holds that already); omit to search every agent.",
        "tiers": "Only these tiers, e.g. [\"wiki\"] or [\"cold\", \"archive\"]; omit for all searchable tiers.",
        "limit": "At most this many hits (1-100), best first.",
    },
    "context": {
        "agent": "The agent being spawned (a slug such as 'picard'); omit when the store has one agent.",
        "task": "The task the agent is spawned for, in a sentence: picks the knowledge relevant to it.",
        "situation": "Why it is spawned: new, resume, debug, spec, onboard or incident (adds whole tiers).",
        "include_cold": "True adds the agent's whole cold history (large; the task-aware pick is usually enough).",
        "include_wiki": "Wiki topics to add whole, e.g. [\"auth\", \"ci\"].",
    },
    "propose": {
        "text": "One durable statement as it should read in the wiki, e.g. 'Always pin Node with .nvmrc'. "
                "No credentials, no instructions to the model.",
        "topic": "The wiki topic file it belongs to (a slug such as 'ci' or 'auth').",
        "kind": "decision, rule, fact or correction.",
        "agent": "Who proposes it (recorded as provenance).",
        "apply": "False (default) only previews; true stages it for the next promotion pull request, "
                 "which a human reviews.",
    },
    "session_start": {
        "agent": "The agent starting work (a slug).",
        "task": "What this session is for, in a sentence; written into the hot file's Current task.",
        "force": "True starts over even when the hot file still holds an unfinished session "
                 "(that session is compacted into cold first).",
    },
    "session_end": {
        "agent": "The agent whose session ends (a slug).",
    },
}

# MCP tool annotations: what a client may assume before calling (read-only, destructive, idempotent).
TOOL_HINTS: dict[str, tuple[str, bool, bool, bool]] = {   # title, read-only, destructive, idempotent
    "recall": ("Recall team memory", True, False, True),
    "context": ("Build a spawn prompt", True, False, True),
    "propose": ("Propose wiki knowledge for review", False, False, False),
    "session_start": ("Start a session", False, False, False),
    "session_end": ("End a session", False, False, False),
    "status": ("Memory tier health", True, False, True),
}
