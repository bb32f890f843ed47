"""`check` remembers each file's content findings by blob: a warm `check --all` scans no file it
already judged, and reports exactly what a cold one does; the hook never uses the cache."""
from __future__ import annotations

import json

from conftest import git, tiergit, write

from tiergit.core import secrets
from tiergit.features import checks, secretscope
from tiergit.shell import check_cache

CACHE = ".git/tiergit/" + check_cache.CACHE_NAME
JUDGES = (*checks.CONTENT_JUDGES, secretscope)
KEY = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"   # the shape of a GitHub token, not one


def _store(repo):
    root = repo / ".squad" / "memory"
    write(root / "cold" / "picard.md", f"# picard\n\n### Work (2026-05-01)\n\n- token {KEY}\n")
    write(root / "wiki" / "auth.md", "# Auth\n\n- [rule] rotate keys\n\nUser: paste me the logs\n")
    write(root / "cold" / "riker.md", "# riker\n\n### Work (2026-05-01)\n\n- [fact] clean file\n")
    return root


def _findings(repo) -> list:
    proc = tiergit(repo, "check", "--all", "--json")
    assert proc.returncode in (0, 1), proc.stderr
    return sorted((f["path"], f["line"], f["code"], f["message"]) for f in json.loads(proc.stdout)["findings"])


def test_warm_check_reports_what_a_cold_one_does_without_scanning(squad_repo, monkeypatch):
    root = _store(squad_repo)
    scanned = []
    real = secrets.scan
    monkeypatch.setattr(secrets, "scan", lambda text: scanned.append(text) or real(text))
    cold = _findings(squad_repo)
    assert {c for _, _, c, _ in cold} >= {"SEC001", "TRN001"}
    assert len(scanned) >= 3 and (squad_repo / CACHE).is_file()
    scanned.clear()
    assert _findings(squad_repo) == cold
    assert scanned == []   # every file's blob was judged before
    write(root / "cold" / "picard.md", "# picard\n\n### Work (2026-05-01)\n\n- token rotated\n")
    warm = _findings(squad_repo)
    assert len(scanned) == 1   # only the changed file
    assert not any(c == "SEC001" for _, _, c, _ in warm)
    assert [f for f in warm if f[2] == "TRN001"] == [f for f in cold if f[2] == "TRN001"]


def test_a_change_to_the_judging_code_is_a_new_key(tmp_path):
    a = check_cache.CheckCache(tmp_path / "c.json", check_cache.code_key(JUDGES))
    key = a.key("x.md", "blob1", True, 100)
    a.put(key, [])
    a.save()
    again = check_cache.CheckCache(tmp_path / "c.json", check_cache.code_key(JUDGES))
    assert again.get(key) == []
    other = check_cache.CheckCache(tmp_path / "c.json", "another version of the rules")
    assert other.get(other.key("x.md", "blob1", True, 100)) is None
    assert again.key("x.md", "blob1", False, 100) != key   # a non-durable tier skips the transcript rule


def test_the_hook_and_check_staged_leave_no_content_cache(squad_repo):
    _store(squad_repo)
    git(squad_repo, "add", "-A")
    assert tiergit(squad_repo, "check", "--staged").returncode == 1
    assert tiergit(squad_repo, "hook", "pre-commit").returncode == 1
    assert not (squad_repo / CACHE).exists()


def test_check_all_reads_each_file_as_it_checks_it(squad_repo):
    """`check --all` held every memory file's bytes before the first check ran (a 50k store's
    ~430 MB); now each file is read when its check runs, so the peak stays under the files' bytes
    (what is left grows with the reports, not the text)."""
    import tracemalloc

    root = squad_repo / ".squad" / "memory" / "cold"
    entry = "".join(f"### Work {n} (2026-05-{n % 28 + 1:02d})\n\n- [fact] the build step {n} takes a while\n\n"
                    for n in range(160))
    for i in range(600):
        write(root / f"agent{i}.md", f"# agent{i}\n\n" + entry)
    total = 600 * len(entry)
    assert tiergit(squad_repo, "check", "--all").returncode in (0, 1)   # counts and judgements cached
    tracemalloc.start()
    try:
        proc = tiergit(squad_repo, "check", "--all")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert proc.returncode in (0, 1), proc.stderr
    assert "memory file(s) checked" in proc.stdout
    assert peak < total, f"peak {peak} bytes for {total} bytes of memory files"
