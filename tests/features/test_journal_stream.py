"""The write journal is written an entry at a time (a 50k-file archive's journal as one string
was ~250 MB): what a kill after the journal leaves must still be the JSON `recover` rolls
forward, non-ASCII text included, and a temp that must move filesystems is written whole again."""
from __future__ import annotations

import errno
import json
import os

import pytest

from tiergit.features.plan import Change
from tiergit.shell import fsutil, journal

TEXTS = {
    "memory/cold/a.md": "# a\n\n- **Decision:** keep “quotes”, émoji 🚀 and a \"backslash\" \\ as they are\n",
    "memory/archive/2025-01/a.md": "# Archive\n\n- [rule] Keep old entries findable.\n" * 50,
    "memory/cold/b.md": "# b\n\n" + "- line with a tab\tand a control \x01 char\n" * 200,
}


class Killed(Exception):
    pass


def test_a_kill_after_the_journal_leaves_json_that_recover_completes(repo, monkeypatch):
    for rel in ("memory/cold/a.md", "memory/cold/b.md"):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text("# old\n", encoding="utf-8")
    changes = [Change(rel, new, "# old\n" if "cold" in rel else None) for rel, new in TEXTS.items()]
    written = []

    def write_then_die(root, rel, new, mode):
        if written:
            raise Killed
        written.append(rel)
        real_write(root, rel, new, mode)

    real_write = journal._write_one
    monkeypatch.setattr(journal, "_write_one", write_then_die)
    with pytest.raises(Killed):
        journal.apply_changes(repo, "tiergit archive", changes)
    data = json.loads(journal.journal_path(repo).read_text(encoding="utf-8"))
    assert data["title"] == "tiergit archive"
    assert {e["path"]: e["new"] for e in data["changes"]} == TEXTS
    monkeypatch.setattr(journal, "_write_one", real_write)
    msgs = journal.recover(repo)
    assert msgs == ["completed an interrupted `tiergit archive`: 2 file(s) written"]
    assert {rel: (repo / rel).read_text(encoding="utf-8") for rel in TEXTS} == TEXTS
    assert not journal.journal_path(repo).exists()


def test_a_streamed_write_that_must_move_filesystems_is_written_whole_twice(repo, monkeypatch):
    target = repo / "memory" / "cold" / "c.md"
    target.parent.mkdir(parents=True)
    calls = []
    real_replace = os.replace

    def cross_device(src, dst):
        if not calls:
            calls.append(src)
            raise OSError(errno.EXDEV, "cross-device link")
        real_replace(src, dst)

    monkeypatch.setattr(fsutil.os, "replace", cross_device)
    pieces = ["# c\n", "- one 🚀\n", "- two\n"]
    fsutil.atomic_write(target, lambda: iter(pieces), root=repo)
    assert calls and target.read_text(encoding="utf-8") == "".join(pieces)
