"""A Squad decision block's field names in the languages the safeguard word lists read: a team that
writes its decisions.md in German heads a block `**Von:** Katrin` / `**Was:** …`, in Japanese
`**担当：** 佐藤` / `**内容：** …`. Read as `**By:**` / `**What:**` are (core/statement.py's
DECISION_BLOCK, core/prtext.py's metadata run). Each group is a regex alternation, lowercase (the
patterns that use them ignore case). A name is listed only as a bold field at a block's head, so a
short word ("da", "por") is safe there. Pure data."""
from __future__ import annotations

from tiergit.core.kind_tags import TRANSLATED_LABEL_WORDS

# Who wrote the block, when, and who owns it.
BYLINE_FIELDS = (
    "by|author|date|owner|requested by|"
    "von|autor|autorin|datum|verantwortlich|par|auteur|responsable|por|fecha|responsável|data|da|autore|"
    "responsabile|door|eigenaar|przez|właściciel|odpowiedzialny|od|av|författare|ansvarig|yazan|hazırlayan|"
    "tarih|sorumlu|oleh|penulis|tanggal|pemilik|bởi|tác giả|người viết|ngày|người phụ trách|автор|дата|"
    "ответственный|владелец|відповідальний|власник|作者|提出人|提出者|负责人|負責人|日期|记录人|决策人|决定人|決定人|提案人|发起人|担当|"
    "担当者|作成者|起案者|日付|決定者|작성자|담당|담당자|날짜|작성일|"
    # "who" as a byline (`**Кто:** Алексей`); not English "Who:", which Squad's plans use for an assignee
    "wer|qui|quién|quem|chi|kto|vem|kim|siapa|кто|хто|谁|誰|누가"
)
STATUS_FIELDS = (
    "status|stand|statut|estado|stato|stan|stav|durum|trạng thái|статус|состояние|стан|状态|狀態|"
    "ステータス|状態|상태"
)
# The field that holds the decision itself: "what" in each language, or the word for decision that
# core/kind_tags.py reads as a `**Decision:**` label.
WHAT_FIELDS = "|".join((
    "what", "decision", "was", "quoi", "qué", "o quê", "o que", "cosa", "wat", "co", "vad", "ne", "apa", "cái gì",
    "что", "що", "内容", "내용", *TRANSLATED_LABEL_WORDS["decision"]))
