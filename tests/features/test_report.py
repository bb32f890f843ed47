"""`tiergit report --html`: one self-contained file with every section; bad input exits 2."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from conftest import git, tiergit, write

from tiergit.features import report
from tiergit.shell import logs
from tiergit.shell.store import Store

MEM = ".squad/memory"


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _store(squad_repo):
    write(squad_repo / f"{MEM}/hot/picard.md", "# picard\n\n## Current task\n" + "- busy <b>&</b>\n" * 300)
    write(squad_repo / f"{MEM}/cold/picard.md", "# cold\n\n### Fix (2026-05-01)\n- **Pattern:** x\n")
    write(squad_repo / ".squad/agents/picard/history.md", "# Picard\n\n" + "- old learning\n" * 400)
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "--no-verify", "-m", "memory")
    return Store.open(squad_repo)


def test_report_is_self_contained_with_every_section(squad_repo, tmp_path):
    _store(squad_repo)
    out = tmp_path / "r.html"
    proc = tiergit(squad_repo, "report", "--html", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}" in proc.stdout
    html = out.read_text()
    parser = Tags()
    parser.feed(html)
    tags = [t for t, _ in parser.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", html)   # nothing fetched from a network
    assert "@import" not in html and "url(" not in html
    assert [a["data-tier"] for t, a in parser.tags if "data-tier" in a] == ["hot", "cold", "wiki"]
    ids = [a["id"] for t, a in parser.tags if t == "section"]
    assert ids == ["tiers", "budgets", "growth", "health", "candidates", "reviews"]
    assert "@media print" in html and 'name="viewport"' in html and "@media (max-width:600px)" in html
    assert "<svg" in html and 'class="chart growth"' in html
    assert "<b>&</b>" not in html
    assert "critical" in html and "hot/picard.md" in html                 # the over-budget hot file is flagged
    assert "legacy files now (1)" in html


def test_report_sections_for_promotion_and_reviews(squad_repo):
    store = _store(squad_repo)
    logs.append(store, logs.REVIEWS, [
        {"ts": "2026-05-02T10:00:00Z", "id": "m-aaaa1111", "action": "accepted", "text": "Rotate <tokens>",
         "topic": "auth", "source": "cold", "reason": ""},
        {"ts": "2026-05-03T10:00:00Z", "id": "m-bbbb2222", "action": "rejected", "text": "one-off", "topic": "misc",
         "source": "cold", "reason": "deleted in review"}])
    model = report.model(store)
    html = report.render(model)
    assert [r["id"] for r in model["reviews"]] == ["m-bbbb2222", "m-aaaa1111"]   # newest first
    assert "Rotate &lt;tokens&gt;" in html and "deleted in review" in html
    assert "promotion not configured" not in html                          # the promotion feature is installed
    assert report.render(model) == html                                      # a pure function of the model


def test_report_json_and_bad_input(squad_repo, tmp_path):
    _store(squad_repo)
    proc = tiergit(squad_repo, "report", "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["html"] is None and {t["tier"] for t in data["status"]["tiers"]} == {"hot", "cold", "wiki"}
    assert data["history"]["commits"][-1]["subject"] == "memory"
    none = tiergit(squad_repo, "report")
    assert none.returncode == 2 and "give --html FILE" in none.stderr
    missing = tiergit(squad_repo, "report", "--html", str(tmp_path / "no" / "such" / "r.html"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr and "Traceback" not in missing.stderr
    folder = tiergit(squad_repo, "report", "--html", str(tmp_path))
    assert folder.returncode == 2 and "is a directory" in folder.stderr
    assert not (tmp_path / "no").exists()


def test_report_shows_candidates_with_scores(squad_repo, tmp_path):
    write(squad_repo / f"{MEM}/cold/picard.md", "# picard cold\n\n### Rate limits (2026-01-05)\n"
          "- **Pattern:** retry with jitter on HTTP 429 from the graph API\n"
          "- **Fix:** honour Retry-After before the next call\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "--no-verify", "-m", "cold")
    for query in ("retry jitter 429", "graph api retry"):
        assert tiergit(squad_repo, "recall", query).returncode == 0
    out = tmp_path / "r.html"
    assert tiergit(squad_repo, "report", "--html", str(out)).returncode == 0
    html = out.read_text()
    section = html[html.index('<section id="candidates">'):html.index('<section id="reviews">')]
    assert "retry with jitter on HTTP 429" in section and "promote" in section
    assert re.search(r'<td class="num">0\.\d\d</td>', section)               # its score
    assert "1 candidate(s) pass the gate" in section
    assert "honour Retry-After" in section and "not durable" in section      # held back, with the reason


