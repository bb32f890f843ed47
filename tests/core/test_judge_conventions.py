"""A team's convention in plain present-tense English (core/judge.py's CONVENTION): "We store all
timestamps in UTC", "New services are written in Go" are rules; a report, a plan or a vague line is not."""
from __future__ import annotations

import pytest

from tiergit.core import judge, kinds


@pytest.mark.parametrize("line", [
    "We store all timestamps in UTC.",
    "We keep UI texts in translation files and never hard-code them.",
    "- We name tables in plural snake_case.",
    "Our team keeps every secret in the vault.",
    "The team always squashes feature branches before merging.",
    "New microservices are written in Go.",
    "The events table is partitioned monthly.",
])
def test_a_present_tense_convention_is_a_rule(line):
    assert judge.plain_kind(line) == "rule"
    assert kinds.classify(line) == "rule"


@pytest.mark.parametrize("line", [
    "We stored the timestamps in UTC.",      # a report of what was done
    "We tried Redis but it was slow.",
    "We need to fix the flaky test.",        # a plan
    "We use it a lot.",                      # says nothing
    "We will deploy on Friday.",
])
def test_a_report_a_plan_or_a_vague_line_is_no_convention(line):
    assert judge.plain_kind(line) != "rule"


@pytest.mark.parametrize("text", [
    "**By:** Priya\n**What:** Background jobs run on a Postgres-backed queue.\n**Why:** one fewer system",
    "**By:** TypeScriptDev **Status:** Implemented **What:** Strict mode in every package.",   # joined into one line
    "**By:** Hugo\n**Date:** 2026-01-28\n**Decision:** Analytics events carry a schema version.",
])
def test_a_squad_decision_block_reads_as_a_standing_statement_at_the_gate(text):
    from tiergit.core import statement
    assert statement.standing(text) == "decision block"
    assert kinds.classify(text) == "context"     # its kind is unchanged: session end condenses it as before


@pytest.mark.parametrize("text", ["**By:** Ripley", "**Status:** Implemented\n**What:** x y z", "**By:** Hugo and **bold** What: x"])
def test_a_byline_without_a_decision_field_is_no_decision_block(text):
    from tiergit.core import statement
    assert statement.standing(text) != "decision block"


@pytest.mark.parametrize("line", [
    "Alle Rechnungen liegen als PDF im Archiv-Bucket.",                     # de: a universal opening
    "Każda usługa ma własny schemat w bazie.",                              # pl
    "Tutte le date nelle API sono in UTC.",                                 # it
    "所有接口都返回统一的错误结构。",                                          # zh
    "订单系统里的每个订单都带一个渠道标签。",                                   # zh: "每个 … 都" after its subject
    "모든 배치 작업은 재실행해도 같은 결과를 냅니다.",                           # ko
    "Neue Dienste werden in Kotlin geschrieben.",                           # de: a habitual passive
    "Nieuwe services worden in Go gebouwd.",                                # nl
    "I report vengono salvati nel bucket ogni notte.",                      # it
    "Логи хранятся в S3 и собираются через Vector.",                        # ru: a reflexive passive
    "Giulia preferisce le stime in giorni interi.",                         # it: a preference
    "Nous rangeons les migrations par service, une par dossier.",          # fr: "we" and a habit
    "Wir speichern alle Zeitstempel in UTC.",                               # de
    "We bewaren de exports dertig dagen, omdat de boekhouding ze nodig heeft.",  # nl
    "Мы держим переводы в файлах locales/<язык>.json.",                    # ru
    "Przechowujemy faktury jako PDF w osobnym buckecie.",                  # pl: the ending says "we"
    "Servis loglarını JSON olarak tutuyoruz.",                              # tr
    "我们统一把定时任务放在 jobs/ 目录下。",                                  # zh
    "私たちは日付をYYYY/MM/DDで表示しています。",                              # ja
])
def test_a_convention_in_another_language_is_a_rule(line):
    assert judge.plain_kind(line) == "rule"


@pytest.mark.parametrize("line", [
    "Wir werden morgen gehen und das besprechen.",              # de: a plan, "werden" + infinitive
    "De automatisering vuurt wanneer beweging wordt gedetecteerd.",  # nl: the passive in a subordinate clause
    "**关键发现**: HER 本质是数据增强",                          # an English word of the list's ("her") in Chinese text
    "全部成功获取，无缺失 ✅",                                   # zh: 全部 is also "entirely": left out
    "韩股今天开盘后明显是风险偏好回升",                            # zh: 偏好 alone is also "appetite"
    "我发现所有 136 个文件都是小文件",                            # zh: "I found …": a report
    "All tests passed yesterday.",                              # English is the English rules' to read
    "Nous avons migré la base hier soir.",                      # fr: a past ("nous avons")
    "Wir werden die Logs nächste Woche umstellen.",             # de: a plan
    "Мы будем переносить сервис в новый кластер.",              # ru: a future
    "Guardamos los ficheros en el bucket viejo.",               # es without its pronoun: also "we kept"
])
def test_no_convention_is_read_into_a_plan_a_report_or_a_look_alike(line):
    assert judge.plain_kind(line) != "rule"


@pytest.mark.parametrize("text", [
    "**Von:** Katrin\n**Was:** Bestellungen werden als Events gespeichert.\n**Warum:** Audit",
    "**Autor:** Marek **Status:** przyjęte **Co:** Wszystkie logi w JSON.",
    "**担当：** 佐藤\n**内容：** アプリは SQLite にキャッシュを持つ。",        # full-width colons
    "**决定人：** 陈静\n**内容：** 对外文档先写中文版。",
    "**Кто:** Алексей\n**Что:** Все сервисы пишут логи в JSON.",             # "who" as a byline
])
def test_a_decision_block_with_its_field_names_in_another_language_is_one(text):
    from tiergit.core import prtext, statement
    assert statement.standing(text) == "decision block"
    assert "**" not in prtext.wiki_text(" ".join(text.split("\n")[:2]), "decision")   # the byline leaves the PR text


def test_a_block_whose_decision_field_reports_a_meeting_is_no_decision():
    from tiergit.core import statement
    assert statement.standing("**By:** Raj\n**What:** Went through the board, nothing new.\n**Why:** Regular") is None


def test_a_chinese_decision_block_is_not_read_as_a_metadata_line():
    # one "word" per clause of Chinese: its characters count toward the block's length
    assert judge.junk("**By:** 陈静 **What:** 商品详情缓存采用写后删除，并设置三十分钟的过期时间兜底。") is None
    assert judge.junk("**Status:** 完成") == "a metadata / status line"


@pytest.mark.parametrize("text, one_off", [
    ("Le fatture vengono generate il primo giorno di ogni mese alle 06:00.", False),   # a recurring time
    ("Ночной ETL обновляет таблицу к 05:00 МСК.", False),
    ("数据每天 01:00 同步。", False),
    ("Die Migration lief um 14:30.", True),
    ("**Decision:** Pizza for Friday's demo.", True),                 # one Friday's event
    ("Morgen schaue ich mir den Speicherverbrauch noch einmal an.", True),   # de "tomorrow"
    ("Jeden Morgen läuft der Backup-Job.", False),                   # de "morning", recurring
])
def test_a_recurring_time_in_any_language_is_standing_and_one_days_event_is_not(text, one_off):
    from tiergit.core.ephemeral import ephemeral
    assert (ephemeral(text) is not None) == one_off
