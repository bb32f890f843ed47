"""The merge driver's own write: never through a link, never into a FIFO, never stalled by
the store lock - through a real `git merge` and through the command line git runs."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import git
from delivery_fixtures import squad_repo, squad_template  # noqa: F401
from test_merge_driver import (
    CAPCOM,
    COLD,
    branch_with,
    commit_all,
    merge,
    seeded,
    session_entry,
)

from tiergit.shell.fsutil import store_lock_path

HOLD = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("locked", flush=True)
time.sleep(120)
"""


def test_a_real_merge_does_not_wait_for_the_store_lock_another_process_holds(squad_repo):
    base = seeded(squad_repo, CAPCOM.read_text())
    alpha, beta = session_entry("Retry budget", "2026-05-02", "alpha"), session_entry("Token cache", "2026-05-01", "beta")
    branch_with(squad_repo, "a", COLD, base + alpha)
    write_main = base + beta
    (squad_repo / COLD).write_text(write_main)
    commit_all(squad_repo, "main: a session")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(store_lock_path(squad_repo))],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"   # a tiergit command holds the store lock
        started = time.monotonic()
        done = merge(squad_repo, "a")
        took = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 0, done.stdout + done.stderr
    merged = (squad_repo / COLD).read_text()
    assert alpha.strip() in merged and beta.strip() in merged and "<<<<<<<" not in merged  # the driver merged
    assert took < 30, f"the merge waited {took:.0f}s"   # the lock's wait is 60 s: far from it


def test_a_branch_that_links_a_memory_file_out_of_the_tree_writes_nothing_there(squad_repo, tmp_path):
    base = seeded(squad_repo, CAPCOM.read_text())
    victim = tmp_path / "bashrc"
    victim.write_text("# rc\n")
    git(squad_repo, "checkout", "-q", "-b", "link")
    (squad_repo / COLD).unlink()
    os.symlink(os.path.relpath(victim, (squad_repo / COLD).parent), squad_repo / COLD)
    commit_all(squad_repo, "link: cold is a symlink now")
    git(squad_repo, "checkout", "-q", "main")
    (squad_repo / COLD).write_text(base + session_entry("Token cache", "2026-05-01", "beta"))
    commit_all(squad_repo, "main: a session")
    done = merge(squad_repo, "link")
    assert "Traceback" not in done.stdout + done.stderr
    assert victim.read_text() == "# rc\n"


def _driver(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tiergit", "merge-driver", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=30)


def _three(tmp_path: Path) -> tuple[Path, Path, Path]:
    base, ours, theirs = (tmp_path / n for n in (".merge_file_O", ".merge_file_A", ".merge_file_B"))
    base.write_text("# Worf\n\n## Learnings\n\n- one\n")
    ours.write_text("# Worf\n\n## Learnings\n\n- zero\n- one\n")
    theirs.write_text("# Worf\n\n## Learnings\n\n- one\n- two\n")
    return base, ours, theirs


def test_the_driver_refuses_a_symlinked_ours_and_writes_nothing_through_it(tmp_path):
    base, ours, theirs = _three(tmp_path)
    victim = tmp_path / "bashrc"
    victim.write_text("# rc\n")
    ours.unlink()
    ours.symlink_to(victim)
    for extra in ([], ["--json"]):   # the click-free entry git runs, and the full CLI
        proc = _driver(tmp_path, str(base), str(ours), str(theirs), COLD, *extra)
        assert proc.returncode == 2 and "symlink" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert victim.read_text() == "# rc\n" and ours.is_symlink()


def test_the_driver_refuses_a_fifo_input_without_hanging(tmp_path):
    base, ours, theirs = _three(tmp_path)
    for victim in (base, ours, theirs):
        saved = victim.read_text()
        victim.unlink()
        os.mkfifo(victim)
        proc = _driver(tmp_path, str(base), str(ours), str(theirs), COLD)   # timeout=30: a hang fails
        assert proc.returncode == 2 and "FIFO" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        victim.unlink()
        victim.write_text(saved)
    proc = _driver(tmp_path, str(base), str(ours), str(theirs), COLD)
    assert proc.returncode == 0, proc.stderr
    assert ours.read_text() == "# Worf\n\n## Learnings\n\n- zero\n- one\n- two\n"
