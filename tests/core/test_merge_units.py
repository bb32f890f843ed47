"""The pure merge (`merge_texts`) and the driver's file handling, without git merge around them."""
from __future__ import annotations

from tiergit.core.merge import merge_texts
from tiergit.features.driverrun import run_driver

BASE = "# Cold\n\n### 2026-05-01: first\n\n- one\n"


def test_newest_first_files_stay_newest_first():
    base = "# Log\n\n## 2026-05-01: old\n\n- old\n"
    ours = "# Log\n\n## 2026-05-03: ours\n\n- o\n\n" + base[len("# Log\n\n"):]
    theirs = "# Log\n\n## 2026-05-02: theirs\n\n- t\n\n" + base[len("# Log\n\n"):]
    merged = merge_texts(base, ours, theirs)
    assert merged.conflicts == 0
    assert merged.text == ("# Log\n\n## 2026-05-03: ours\n\n- o\n\n## 2026-05-02: theirs\n\n- t\n\n"
                           "## 2026-05-01: old\n\n- old\n")


def test_file_added_on_both_sides_keeps_both_entries():
    merged = merge_texts("", "# Cold\n\n### 2026-05-01: a\n\n- a\n", "# Cold\n\n### 2026-05-02: b\n\n- b\n")
    assert merged.conflicts == 0
    assert merged.text == "# Cold\n\n### 2026-05-01: a\n\n- a\n\n### 2026-05-02: b\n\n- b\n"


def test_crlf_files_stay_crlf():
    base = BASE.replace("\n", "\r\n")
    merged = merge_texts(base, base + "\r\n### 2026-05-02: a\r\n\r\n- a\r\n", base + "\r\n### 2026-05-03: b\r\n\r\n- b\r\n")
    assert merged.conflicts == 0 and "\n" not in merged.text.replace("\r\n", "")
    both = merge_texts(base, base.replace("- one", "- uno"), base.replace("- one", "- eins"))
    assert both.conflicts == 1
    assert "<<<<<<< ours\r\n- uno\r\n=======\r\n- eins\r\n>>>>>>> theirs\r\n" in both.text


def test_frontmatter_same_key_changed_differently_is_a_marked_conflict():
    base = "---\nagent: picard\nstatus: active\n---\n" + BASE
    merged = merge_texts(base, base.replace("active", "paused"), base.replace("active", "retired")
                         .replace("- one\n", "- one\n- two\n"))
    assert merged.conflicts == 1 and merged.conflict_sections == ["the frontmatter"]
    assert merged.text.startswith("---\nagent: picard\n<<<<<<< ours\nstatus: paused\n=======\n"
                                  "status: retired\n>>>>>>> theirs\n---\n")
    assert merged.text.endswith("- one\n- two\n")


def test_both_sides_append_to_the_same_entry_and_one_edits_another_item():
    base = "# Cold\n\n### 2026-05-01: e\n\n**Fact:** one\n\n**Fix:** two\n"
    ours = base.replace("**Fact:** one", "**Fact:** one, confirmed") + "\n**Pattern:** three\n"
    theirs = base + "\n**Lesson:** four\n"
    merged = merge_texts(base, ours, theirs)
    assert merged.conflicts == 0
    assert merged.text == ("# Cold\n\n### 2026-05-01: e\n\n**Fact:** one, confirmed\n\n**Fix:** two\n\n"
                           "**Pattern:** three\n\n**Lesson:** four\n")


def test_invalid_utf8_falls_back_to_a_line_merge(tmp_path):
    base, ours, theirs = (tmp_path / n for n in ("O", "A", "B"))
    base.write_bytes(b"# Cold\n\n- one\n")
    ours.write_bytes(b"# Cold\n\n- one\n- caf\xe9\n")
    theirs.write_bytes(b"# Cold\n\n- zero\n- one\n")
    outcome = run_driver(base, ours, theirs, "cold.md")
    assert outcome["fallback"] is True and outcome["conflicts"] == 0
    assert "not valid UTF-8" in outcome["notes"][0]
    assert ours.read_bytes() == b"# Cold\n\n- zero\n- one\n- caf\xe9\n"
