"""A refresh with nothing moved does nothing (file_stamps.untouched); any moved file or folder still re-indexes."""
from __future__ import annotations

import os
from pathlib import Path

from conftest import write

from tiergit.features import file_stamps, recall, recall_index
from tiergit.shell.store import Store

COLD = Path(".squad") / "memory" / "cold"


def _settle(repo: Path) -> None:
    """Every memory folder and file ten seconds old: a folder changed in the walk's own clock tick is
    not trusted (listing.RACY_NS), as git treats a racily clean file."""
    when = os.stat(repo).st_mtime_ns - 10_000_000_000
    for folder, _dirs, files in os.walk(repo / ".squad"):
        for path in [folder, *(os.path.join(folder, f) for f in files)]:
            os.utime(path, ns=(when, when))


def test_nothing_moved_is_nothing_to_do_and_any_change_is_seen(squad_repo: Path) -> None:
    write(squad_repo / COLD / "riker.md", "# riker\n\n### Keys (2026-05-01)\n\n- GatewaySigner rotates keys.\n")
    _settle(squad_repo)
    store = Store.open(squad_repo)
    db = recall_index.connect(recall_index.index_path(store.repo))
    try:
        first = recall_index.refresh(store, db)
        covered = file_stamps.untouched(store, db)
        assert covered == first.files == db.execute("SELECT count(*) FROM files").fetchone()[0]
        again = recall_index.refresh(store, db)
        assert (again.files, again.reindexed, again.removed) == (first.files, 0, 0)

        # a file written again (its size changes): seen, re-indexed, found
        path = squad_repo / COLD / "riker.md"
        path.write_text(path.read_text() + "- Rotation window is fifteen minutes.\n")
        assert file_stamps.untouched(store, db) is None
        assert recall_index.refresh(store, db).reindexed == 1
        assert any("fifteen" in h.text for h in recall.search(db, "rotation window fifteen", ["cold"]))

        # the same size, another mtime: seen too
        text = path.read_text()
        path.write_text(text.replace("fifteen", "nineteen")[: len(text)].ljust(len(text)))
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
        assert file_stamps.untouched(store, db) is None
        recall_index.refresh(store, db)
        assert any("nineteen" in h.text for h in recall.search(db, "nineteen", ["cold"]))

        # a new file in a known folder: the folder moved
        write(squad_repo / COLD / "troi.md", "# troi\n\n### Notes (2026-05-02)\n\n- Troi owns the rota.\n")
        assert file_stamps.untouched(store, db) is None
        assert recall_index.refresh(store, db).files == covered + 1
        _settle(squad_repo)
        recall_index.refresh(store, db)   # the walk, and its listing, once the folders are settled
        assert file_stamps.untouched(store, db) == covered + 1
    finally:
        db.close()
