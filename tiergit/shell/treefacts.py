"""Facts about the repository's trees for the staleness check (`core/citations.py`), cached.

A word's presence in a tree never changes, so answers are kept by tree id in
`<git dir>/tiergit/citations-v1.json`: a run asks git only about words it has not
asked about for that tree (one `git grep` per tree for all of them), and the paths a
citation matched at an anchor commit are kept the same way. Cost on a warm cache: one
`git cat-file --batch-check` for every tree's id and one `git ls-tree` of HEAD; cold: one `git grep` per tree.
"""
from __future__ import annotations

import json
from pathlib import Path

from tiergit.core.citations import TreeFacts
from tiergit.shell import git, statedir

CACHE_NAME = "citations-v2.json"
MAX_TREES = 400     # the oldest trees' answers go first


class TreeFactsCache:
    """`exclude`: repo-relative folders and files whose words do not count (the memory itself)."""

    def __init__(self, repo: Path, exclude: tuple[str, ...] = ()) -> None:
        import hashlib

        self.repo = repo
        self.exclude = exclude
        self.scope = hashlib.sha1("\0".join(exclude).encode("utf-8")).hexdigest()[:12]
        self.path: Path | None = None
        self.data: dict = {"words": {}, "paths": {}, "order": []}
        self.dirty = False
        self._trees: dict[str, str | None] = {}   # rev -> its tree id, resolved in batches
        try:
            self.path = statedir.state_dir(repo) / CACHE_NAME
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and {"words", "paths", "order"} <= set(loaded):
                self.data = loaded
        except (OSError, ValueError, Exception):  # noqa: BLE001 - a cache that cannot be read is rebuilt
            pass

    def tree_of(self, rev: str) -> str | None:
        if rev not in self._trees:
            self._trees.update(git.trees_of(self.repo, [rev]))
        return self._trees.get(rev)

    def know_trees(self, revs: list[str]) -> None:
        """Resolve many revs' trees with one git process (the anchors a staleness check will ask about)."""
        self._trees.update(git.trees_of(self.repo, [r for r in revs if r not in self._trees]))

    def _touch(self, tree: str) -> None:
        order = self.data["order"]
        if tree in order:
            order.remove(tree)
        order.append(tree)
        while len(order) > MAX_TREES:
            old = order.pop(0)
            self.data["words"].pop(old, None)
            self.data["paths"].pop(old, None)

    def facts(self, rev: str, words: list[str], cited: list[str]) -> TreeFacts:
        """The tree's paths matching `cited` (as `citations._matches` needs them) and which `words` occur."""
        from tiergit.core.citations import _matches

        tree = self.tree_of(rev)
        if tree is None:
            return TreeFacts(frozenset(), frozenset())
        self._touch(tree)
        known = self.data["words"].setdefault(tree, {}).setdefault(self.scope, {})
        missing = sorted({w for w in words if w not in known})
        if missing:
            found = git.words_in_tree(self.repo, rev, missing, self.exclude)
            known.update({w: w in found for w in missing})
            self.dirty = True
        matched = self.data["paths"].setdefault(tree, {})
        todo = sorted({c for c in cited if c not in matched})
        if todo:
            every = git.tree_paths(self.repo, rev)
            matched.update({c: _matches(c, every) for c in todo})
            self.dirty = True
        paths = frozenset(p for c in cited for p in matched[c])
        return TreeFacts(paths, frozenset(w for w in words if known.get(w)))

    def save(self) -> None:
        if not self.dirty or self.path is None:
            return
        from tiergit.shell.fsutil import atomic_write

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(self.data, separators=(",", ":")).encode("utf-8"))
            self.dirty = False
        except OSError:   # a read-only clone still answers, it just asks git again next time
            pass
