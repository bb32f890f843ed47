"""What a merge did to memory against the repository, for the post-merge hook (never blocks).

Items whose citations the merge made stale (live at ORIG_HEAD, gone at HEAD), and superseding
items the merge brought in (`core/supersede.py` over the store's statements, only pairs with
one side new). Cost: the staleness check of every item (cached by tree id), the ORIG_HEAD
version of the memory files (one `git ls-tree`, one `git cat-file --batch`), one scan.
"""
from __future__ import annotations

from tiergit.core import citations, parse, rawtext
from tiergit.errors import TiergitError
from tiergit.features.staleness import check, memory_paths, store_items


def after_merge(store) -> list[str]:
    """Lines for the post-merge hook: items the merge made stale (their citations were live at
    ORIG_HEAD), and superseding pairs whose newer item the merge brought in. Never raises for
    what it finds; an empty list when there is nothing to say."""
    from tiergit.core.supersede import scan
    from tiergit.shell import git
    from tiergit.shell.treefacts import TreeFactsCache

    orig = git.rev_parse(store.repo, "ORIG_HEAD")
    if orig is None:
        return []
    items = store_items(store)
    report = check(store, items)
    lines: list[str] = []
    made = []
    if report.stale:
        cache = TreeFactsCache(store.repo, memory_paths(store.config))
        cited = [s for found in report.stale.values() for s in found]
        before = cache.facts(orig, sorted({s.cited for s in cited if s.kind == "symbol"}),
                             sorted({s.cited for s in cited if s.kind == "path"}))
        cache.save()
        for (path, line), found in sorted(report.stale.items()):
            live_before = [s for s in found if (s.cited in before.words if s.kind == "symbol"
                                               else citations._matches(s.cited, before.paths))]
            if live_before:
                made.append(f"  {path}:{line}: " + "; ".join(s.reason for s in live_before))
    if made:
        lines += [f"tiergit: the merge made {len(made)} memory item(s) stale:", *made]
    old_texts = _texts_at(store, orig, sorted({it.path for it in items}))
    brought = [it for it in items if it.text not in old_texts.get(it.path, set())]
    if brought:
        new_keys = {(it.path, it.line) for it in brought}
        pairs = [(o, n, why) for o, n, why in scan([((it.path, it.line), it.day, it.text) for it in items
                                                    if it.statement()], focus=new_keys)
                 if (n in new_keys) != (o in new_keys)]
        if pairs:
            lines.append(f"tiergit: the merge brought {len(pairs)} item(s) that supersede another:")
            lines += [f"  {n[0]}:{n[1]} supersedes {o[0]}:{o[1]} ({why})" for o, n, why in pairs]
    if lines:
        lines.append("  hint: `tiergit audit` proposes archiving stale and superseded items (a renamed path is "
                     "rewritten); nothing was changed")
    return lines


def _texts_at(store, rev: str, paths: list[str]) -> dict[str, set[str]]:
    """The item texts each memory file held at `rev`."""
    from tiergit.shell import git

    entries = {e.path: e.blob for e in git.tree_entries(store.repo, rev, paths)}
    blobs = git.read_blobs(store.repo, sorted(set(entries.values())))
    out: dict[str, set[str]] = {}
    for path, blob in entries.items():
        try:
            text = rawtext.decode(blobs[blob], path, store.config.limits["max_file_bytes"])
            doc = parse.parse(text, path, store.config.labels)
        except (TiergitError, KeyError):
            continue
        out[path] = {item.text for sec in doc.sections for item in sec.items}
    return out
