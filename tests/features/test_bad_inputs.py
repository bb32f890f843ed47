"""Bad memory files, through a real `git commit` and `tiergit check PATH`: a clear finding
naming file and line, exit 1 (a failed check) or 2 (bad usage), no traceback, nothing written."""
from __future__ import annotations

import pytest
from conftest import git, tiergit, write

COLD = ".squad/memory/cold/picard.md"


def snapshot(repo):
    """Everything a command could touch: index, work tree status, HEAD."""
    return (git(repo, "ls-files", "-s").stdout, git(repo, "status", "--porcelain").stdout,
            git(repo, "rev-parse", "HEAD").stdout)


def commit_refused(repo, rel, code, line=1):
    git(repo, "add", "--", rel)
    before = snapshot(repo)
    proc = git(repo, "commit", "-m", "bad input", check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{rel}:{line}: {code} [critical]" in proc.stderr, proc.stderr
    assert "hint:" in proc.stderr and "Traceback" not in proc.stderr
    assert "commit refused" in proc.stderr
    assert snapshot(repo) == before  # the index and HEAD are untouched
    check = tiergit(repo, "check", rel)
    assert check.returncode == 1 and f"{rel}:{line}: {code}" in check.stdout
    assert "Traceback" not in check.stdout + check.stderr
    return proc


@pytest.mark.parametrize("data,code,line,words", [
    (b"---\nagent: [unclosed\n---\n# Cold\n", "FM001", 3, "invalid frontmatter"),
    (b"---\nagent: picard\n# never closed\n", "FM001", 1, "frontmatter is not closed"),
    (b"---\n- just\n- a list\n---\n# Cold\n", "FM001", 2, "must be a YAML mapping"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "TG001", 1, "binary file"),
    (b"# Cold\n\n- caf\xe9 au lait\n", "TG002", 3, "not valid UTF-8"),
])
def test_bad_file_is_refused_with_file_line_and_code(squad_repo, data, code, line, words):
    (squad_repo / COLD).write_bytes(data)
    proc = commit_refused(squad_repo, COLD, code, line)
    assert words in proc.stderr


def test_file_over_max_file_bytes(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "limits: {max_file_bytes: 2000}\n")
    git(squad_repo, "commit", "-q", "-am", "small limit")
    write(squad_repo / COLD, "# Cold\n\n" + "- note\n" * 400)
    proc = commit_refused(squad_repo, COLD, "TG003")
    assert "2808 bytes, over the 2000-byte limit" in proc.stderr and "limits.max_file_bytes" in proc.stderr


def test_symlink_out_of_the_repo_staged_and_by_path(squad_repo, tmp_path):
    secret = tmp_path / "outside.md"
    secret.write_text("# not memory\n")
    link = squad_repo / ".squad/memory/hot/picard.md"
    link.symlink_to(secret)
    proc = commit_refused(squad_repo, ".squad/memory/hot/picard.md", "TG004")
    assert "symlink points outside the repository" in proc.stderr
    # A path outside the repository itself is a usage error: exit 2, one clear line.
    outside = tiergit(squad_repo, "check", str(secret))
    assert outside.returncode == 2
    assert outside.stderr.startswith(f"tiergit: error: {secret}: outside the repository")
    assert "Traceback" not in outside.stderr


def test_symlink_inside_the_repo_is_refused_too(squad_repo):
    write(squad_repo / "notes.md", "# real file\n")
    (squad_repo / COLD).symlink_to("../../../notes.md")
    proc = commit_refused(squad_repo, COLD, "TG004")
    assert "memory file is a symlink" in proc.stderr


def test_status_reports_a_broken_file_without_failing(squad_repo):
    (squad_repo / COLD).write_bytes(b"# Cold\n\xff\n")
    proc = tiergit(squad_repo, "status")
    assert proc.returncode == 1 and "CRIT" in proc.stdout and "TG002" in proc.stdout   # CRIT exits 1, like check
    assert "Traceback" not in proc.stderr


def test_unknown_command_option_is_exit_2(squad_repo):
    proc = tiergit(squad_repo, "check", "--no-such-flag")
    assert proc.returncode == 2 and "No such option" in proc.stderr


def test_not_a_git_repository(tmp_path):
    proc = tiergit(tmp_path, "status")
    assert proc.returncode == 2 and "not inside a git work tree" in proc.stderr
    assert "Traceback" not in proc.stderr
