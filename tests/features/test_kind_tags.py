"""`[kind]` tags in other languages (core/kind_tags.py): read as the English tag, replaced with a kind's
configured labels, never shown to agents, and the poison benchmark's tagged durable items reach the PR."""
from __future__ import annotations

import pytest

from tiergit.core import kinds
from tiergit.core.kind_tags import TRANSLATED_TAGS
from tiergit.features import instructions


@pytest.mark.parametrize("line, kind", [
    ("- [zasada] Commit messages in the imperative, at most 72 characters.", "rule"),
    ("- [Règle] Ne jamais committer de fichier .env.", "rule"),
    ("- [ルール] ユーザー向けの文言は常に敬体で書く。", "rule"),
    ("- [quyết định] Dùng Redis Streams thay cho RabbitMQ.", "decision"),
    ("- [fakta] Layanan notifikasi ditulis dalam Go.", "fact"),
    ("- [исправление] Сервис пишет логи в stdout, а не в файл.", "correction"),
    ("- [preferencja] Właściciel woli krótkie odpowiedzi.", "rule"),
])
def test_a_translated_tag_gives_the_kind_its_english_tag_gives(line, kind):
    assert kinds.classify(line) == kind


@pytest.mark.parametrize("line, kind", [
    ("- [lesson] Reports for the ops team go out as Excel; most of them never open a CSV.", "rule"),
    ("- [convention] Branch names follow type/TICKET-slug.", "rule"),
    ("- [constraint] The payment API allows 50 requests a second.", "fact"),
])
def test_an_english_labels_word_as_a_tag_gives_its_kind(line, kind):
    # `**Lesson:**` is a rule, so is `[lesson]`, as `[lección]` is; the agent instructions still list `[rule]`
    assert kinds.classify(line) == kind
    assert "[lesson]" not in instructions.kinds_list(None)


def test_an_unknown_or_ambiguous_bracket_is_no_tag():
    assert kinds.classify("- [wip] parser refactor") == "context"
    assert kinds.classify("- [修正] 直した") == "context"    # "fix" in Japanese: an error's or a correction's


def test_configuring_a_kinds_labels_replaces_its_translations_too():
    assert kinds.classify("- [zasada] x y z", labels={"rule": ["[team-rule]"]}) != "rule"
    assert kinds.classify("- [team-rule] x y z", labels={"rule": ["[team-rule]"]}) == "rule"


def test_every_translated_tag_is_lowercase_bracketed_and_names_a_durable_kind():
    for kind, tags in TRANSLATED_TAGS.items():
        assert kind in kinds.DURABLE_KINDS
        assert all(t.startswith("[") and t.endswith("]") and t == t.lower() for t in tags)
    every = [t for tags in TRANSLATED_TAGS.values() for t in tags]
    assert len(every) == len(set(every)), "a tag read as two kinds"


def test_agents_are_shown_the_english_tags_only():
    shown = instructions.kinds_list(None)
    assert "[rule]" in shown and "[zasada]" not in shown and "[ルール]" not in shown


@pytest.mark.parametrize("line, kind", [
    ("**Entscheidung:** Bestellungen werden per Event-Sourcing gespeichert.", "decision"),
    ("- **Keputusan:** Kami memakai monorepo.", "decision"),
    ("**決定：** サービス間は gRPC を使う。", "decision"),          # a full-width colon
    ("**Quy ước:** Tên bảng dùng snake_case số nhiều.", "rule"),  # a two-word label
    ("**Konwencja**: Nazwy tabel w liczbie mnogiej.", "rule"),
    ("[Konwencja] Nazwy tabel w liczbie mnogiej.", "rule"),          # a label word is a tag too
    ("**Einschränkung:** Uploads sind auf 10 MB begrenzt.", "fact"),
    ("Preference/workflow: voice replies only until the owner says stop.", "rule"),
])
def test_a_translated_bold_label_gives_the_kind_its_english_label_gives(line, kind):
    assert kinds.classify(line) == kind


@pytest.mark.parametrize("line", [
    "Datenbankmigrationen sind immer abwärtskompatibel.",
    "Wszystkie daty w API zwracamy w UTC i nigdy w czasie lokalnym.",
    "Usamos paginação por cursor em todas as listagens da API.",
    "金額はすべて整数で保存し、浮動小数点型は使わない。",
    "Назви таблиць завжди пишемо у snake_case.",
])
def test_a_plain_rule_in_another_language_is_a_rule(line):
    assert kinds.classify(line) == "rule"


@pytest.mark.parametrize("line", [
    "The deve branch is where the nunca script lives.",      # English, whatever its odd words
    "Heute habe ich immer noch den Fehler gesehen.",          # "immer noch" is "still"
    "Die Besprechung war lang.",                              # no rule word
])
def test_other_words_of_other_languages_give_no_rule(line):
    assert kinds.classify(line) == "context"



@pytest.mark.parametrize("line", [
    "- **Style:** Direct, decisive. Cuts scope quickly. Prefers shipping over perfection.",   # English "prefers"
    "- **Dual view modes:** Grid (cards) + List (button list); persisted via `Preferences`",
])
def test_an_english_line_is_not_read_by_another_languages_rule_words(line):
    assert kinds.classify(line) == "context"
