"""An item's kind and id are judged once per distinct text, and the memo never changes an answer:
the same text under another heading or label vocabulary is judged again."""
from __future__ import annotations

from tiergit.core import parse
from tiergit.core.kinds import classify

DOC = ("# picard\n\n## Blockers\n\n- **Always:** rebase before merging\n- waiting on the API key\n\n"
       "## Notes\n\n- **Always:** rebase before merging\n- waiting on the API key\n")
LABELS = {"rule": ["**Always:**"]}


def _kinds(doc: parse.MemoryDoc) -> list[tuple[str | None, str, str]]:
    return [(sec.heading, item.kind, item.id) for sec in doc.sections for item in sec.items]


def test_memo_answers_what_classify_answers(monkeypatch):
    with monkeypatch.context() as m:   # the answers with no memo at all
        m.setattr(parse, "_kind_once", lambda text, heading, labels, key: classify(text, heading, labels))
        m.setattr(parse, "_id_once", lambda text: (*parse.item_id(text), parse.clean_text(text)))
        expected = {str(labels): _kinds(parse.parse(DOC, "x.md", labels)) for labels in (None, LABELS)}
    parse._KIND_MEMO.clear()
    parse._ID_MEMO.clear()
    for labels in (None, LABELS, None, LABELS):   # the second round answers from the memo
        assert _kinds(parse.parse(DOC, "x.md", labels)) == expected[str(labels)]
    assert parse._KIND_MEMO
    plain = {(h, k) for h, k, _ in _kinds(parse.parse(DOC, "x.md", None))}
    labelled = {(h, k) for h, k, _ in _kinds(parse.parse(DOC, "x.md", LABELS))}
    assert ("Notes", "rule") in labelled and ("Notes", "rule") not in plain   # the vocabulary counts
    assert {k for h, k in plain if h == "Blockers"} != {k for h, k in plain if h == "Notes"}   # so does the heading


def test_a_full_memo_starts_again_with_the_same_answers(monkeypatch):
    expected = _kinds(parse.parse(DOC, "x.md", LABELS))
    monkeypatch.setattr(parse, "_MEMO_MAX", 2)
    parse._KIND_MEMO.clear()
    parse._ID_MEMO.clear()
    assert _kinds(parse.parse(DOC, "x.md", LABELS)) == expected
    assert len(parse._KIND_MEMO) <= 2 and len(parse._ID_MEMO) <= 2
