"""The staging file: promotion candidates that `tiergit import` stages for review.

Format (plain markdown that `parse` reads like any memory file):

    # Staged candidates
    <!-- ... -->
    ## <source file, e.g. .squad/agents/pao/history.md>
    ### <entry heading it came from, with its date when it had one>
    - [<kind>] <clean item text> ^<item id>

Each list item is one candidate: its `[kind]` prefix gives the kind and its
explicit block id is the id the item had in the legacy file (so recall logs,
review logs and promotions refer to the same id everywhere); the `##` heading
names the source file and the `###` heading the entry (its date is the item's
age). The file is `staging` from the config when set (`DREAMS.md` in the
openclaw preset), else `<root>/staging/imported.md`. `tiergit promote` reads
every staged item as a candidate; deleting a line drops the candidate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tiergit.core import parse

HEADER = (
    "# Staged candidates\n\n"
    "<!-- Promotion candidates staged by `tiergit import`, one per list item:\n"
    "     `- [kind] text ^id` under `## source file` / `### entry`. `tiergit promote` scores\n"
    "     them like any other candidate; delete a line to drop one. -->\n"
)
ID_IN_TEXT_RE = re.compile(r"\^(m-[0-9a-z]{4,32})\b")


@dataclass(frozen=True)
class Staged:
    id: str
    kind: str
    text: str          # clean, one line
    source: str        # repo-relative legacy file
    entry: str | None  # heading of the section it came from


def staging_path(config) -> str:
    """Repo-relative path of the staging file `import` writes."""
    return config.repo_path(config.staging) if config.staging else config.repo_path("staging/imported.md")


def line(item: Staged) -> str:
    text = re.sub(r"\s+", " ", item.text).strip()
    return f"- [{item.kind}] {text} ^{item.id}"


def present_ids(text: str) -> set[str]:
    return set(ID_IN_TEXT_RE.findall(text))


def render(existing: str | None, items: list[Staged]) -> str:
    """The staging file with `items` appended (ids already present are skipped), grouped by source/entry."""
    have = present_ids(existing or "")
    out = existing if existing is not None else HEADER
    new = []
    for item in items:
        if item.id not in have:
            have.add(item.id)
            new.append(item)
    if not new:
        return out
    chunks = []
    source = entry = object()
    for item in new:
        if item.source != source:
            source, entry = item.source, object()
            chunks.append(f"\n## {item.source}\n")
        if item.entry != entry:
            entry = item.entry
            chunks.append(f"\n### {item.entry or '(no heading)'}\n\n")
        chunks.append(line(item) + "\n")
    sep = "" if out.endswith("\n") else "\n"
    return out + sep + "".join(chunks)


def plan_stage(store, plan, items: list[Staged]) -> None:
    """Add the staging file with `items` merged in to `plan` (an import's durable items wait
    there for review; already-staged ids are kept once). An item that weakens a safeguard is not
    staged: the plan names it and why. Cost: one read of the staging file."""
    # Imported here, the module's one local import: `status` reads this module for its staging
    # row, and safeguard (with judge's patterns) costs ~35 ms a run it would never use.
    from tiergit.core import safeguard

    refused = [(it, why) for it in items if (why := safeguard.weakens(it.text))]
    for it, why in refused:
        plan.notes.append(f"not staged: {it.source}: {it.text[:70]} ({why})")
    items = [it for it in items if not any(it is r for r, _ in refused)]
    if not items:
        return
    rel = staging_path(store.config)
    old = (store.repo / rel).read_text(encoding="utf-8") if (store.repo / rel).is_file() else None
    new = render(old, items)
    count = len(present_ids(new) - present_ids(old or ""))
    plan.add(rel, new, old, reason=f"{count} durable item(s) staged as promotion candidates")


def read(text: str, path: str, labels=None) -> list[Staged]:
    """Staged items back from a staging file's text."""
    doc = parse.parse(text, path, labels)
    out, source = [], None
    for sec in doc.sections:
        if sec.level == 2 and sec.heading:
            source = sec.heading
        for item in sec.items:
            out.append(Staged(item.id, item.kind, item.clean, source or path, sec.heading))
    return out
