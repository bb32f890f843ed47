"""DECISION and POLICY items of Squad's governed store as promotion candidates.

`squad memory write --class DECISION` files an entry under `.squad/decisions/inbox/`, a
POLICY one under `.squad/memory/policy-inbox/` (squad-sdk 0.13.1), each a markdown file
with YAML frontmatter. `import squad` stages what they say (as `decisions.md`'s items
are staged) so `promote` scores them; the files stay Squad's (Scribe merges the inbox
into decisions.md and deletes it). A FORBIDDEN or TRANSIENT entry is never staged.
"""
from __future__ import annotations

from tiergit.core import governed, injection, judge, parse
from tiergit.features.importing import staged

INBOXES = ((".squad/decisions/inbox", "decision"), (".squad/memory/policy-inbox", "rule"))


def candidates(store, read_text, durable_items) -> list[staged.Staged]:
    """Staged candidates from every inbox entry (its durable items, else its body as one)."""
    out: list[staged.Staged] = []
    for folder, kind in INBOXES:
        base = store.repo / folder
        if not base.is_dir() or base.is_symlink():
            continue
        for path in sorted(base.glob("*.md")):
            rel = path.relative_to(store.repo).as_posix()
            doc = parse.parse(read_text(store, rel), rel, store.config.labels)
            if not governed.served(doc.metadata):
                continue
            items = durable_items(doc, rel, kind == "decision")
            if not items:
                body = " ".join(s.text for s in doc.sections if s.level == 0).split()
                text = " ".join(body)
                if text and not judge.junk(text) and not injection.injection(text):
                    items = [staged.Staged(parse.item_id(text)[0], kind, text, rel, None)]
            out.extend(items)
    return out
