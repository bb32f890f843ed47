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


MOVE_BASE = ("# Log\n\n## 2026-05-01: a\n\n- a one\n\n## 2026-05-02: b\n\n- b one\n\n"
             "## 2026-05-03: c\n\n- c one\n")
A, B, C = (MOVE_BASE.split("\n\n## ")[i] for i in (1, 2, 3))


def _log(*entries: str) -> str:
    return "# Log\n\n" + "\n\n".join("## " + e.strip("\n") for e in entries) + "\n"


def test_a_moved_entry_edited_on_the_other_side_comes_out_once_where_it_was_moved():
    moved = _log(C, A, B)
    edited = MOVE_BASE.replace("- c one", "- c one, confirmed")
    for ours, theirs in ((moved, edited), (edited, moved)):
        merged = merge_texts(MOVE_BASE, ours, theirs)
        assert merged.conflicts == 0
        assert merged.text == _log(C.replace("- c one", "- c one, confirmed"), A, B)


def test_a_reorder_and_an_append_keep_every_entry_once():
    merged = merge_texts(MOVE_BASE, _log(C, B, A), MOVE_BASE + "\n## 2026-05-04: d\n\n- d one\n")
    assert merged.conflicts == 0
    assert [merged.text.count(f"## 2026-05-0{n}") for n in range(1, 5)] == [1, 1, 1, 1]


def test_an_entry_deleted_on_one_side_and_moved_on_the_other_is_kept():
    """Of two swapped entries either may have moved: a deletion of either is undone (nothing lost)."""
    swapped = _log(A, C, B)
    for gone in (B, C):
        deleted = _log(*[e for e in (A, B, C) if e != gone])
        merged = merge_texts(MOVE_BASE, swapped, deleted)
        assert merged.conflicts == 0 and merged.text == swapped
        assert "moved on one side, deleted on the other" in merged.notes[0]
    # A move elsewhere in the file does not undo a deletion the mover did not reorder around.
    merged = merge_texts(MOVE_BASE, _log(B, C, A), _log(B, C))
    assert merged.text.count("## 2026-05-01") == 1 and merged.text.count("## 2026-05-02") == 1


def test_one_side_crlf_the_other_lf_gives_the_base_line_endings():
    crlf = (MOVE_BASE + "\n## 2026-05-04: d\n\n- d one\n").replace("\n", "\r\n")
    lf = MOVE_BASE.replace("- a one", "- a one, edited")
    for ours, theirs in ((crlf, lf), (lf, crlf)):
        merged = merge_texts(MOVE_BASE, ours, theirs)
        assert merged.conflicts == 0 and "\r" not in merged.text
        assert merged.text == MOVE_BASE.replace("- a one", "- a one, edited") + "\n## 2026-05-04: d\n\n- d one\n"
    base = MOVE_BASE.replace("\n", "\r\n")
    merged = merge_texts(base, lf, crlf.replace("- b one", "- b two"))
    assert merged.text.count("\n") == merged.text.count("\r\n") and "## 2026-05-04: d\r\n\r\n- d one\r\n" in merged.text


def test_the_bom_follows_the_base():
    bom = "\ufeff"
    merged = merge_texts(bom + MOVE_BASE, bom + MOVE_BASE + "- c two\n", MOVE_BASE.replace("- a one", "- a 1"))
    assert merged.text.startswith(bom + "# Log") and merged.text.count(bom) == 1
    merged = merge_texts(MOVE_BASE, bom + MOVE_BASE + "- c two\n", MOVE_BASE.replace("- a one", "- a 1"))
    assert bom not in merged.text and merged.text.endswith("- c one\n- c two\n")


def test_both_sides_writing_after_a_rule_merge_as_union_would():
    base = "# Log\n\n## 2026-05-01: a\n\n- a one\n\n---\n"
    merged = merge_texts(base, base + "3. ours step\n", base + "3. theirs step\n")
    assert merged.conflicts == 0 and merged.text == base + "3. ours step\n3. theirs step\n"
    para = "# Log\n\nclosing paragraph.\n"
    merged = merge_texts(para, para + "ours line\n", para + "theirs line\n")
    assert merged.conflicts == 0 and merged.text == para + "ours line\n\ntheirs line\n"
    # The same base line changed differently on both sides is still a conflict.
    assert merge_texts(para, para.replace("closing", "ours"), para.replace("closing", "theirs")).conflicts == 1
