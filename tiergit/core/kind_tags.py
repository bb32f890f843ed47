"""`[kind]` tags in the languages the safeguard word lists read (core/safeguard_words*.py): an agent
writing its memory in Polish tags a rule `[zasada]`, in Japanese `[ルール]`. Read as the English tag
is (core/kinds.py's label table, beside DEFAULT_LABELS; configuring a kind's labels replaces these
too); not shown in the agent instructions, which keep the English ones. A preference is a rule, as
`[preference]` is. A tag whose word is ambiguous in its language (a "fix" that may be an error's) is
left out. Pure data."""
from __future__ import annotations

TRANSLATED_TAGS: dict[str, tuple[str, ...]] = {
    "rule": (
        "[regel]", "[präferenz]", "[règle]", "[préférence]", "[regla]", "[preferencia]", "[regra]",
        "[preferência]", "[regola]", "[preferenza]", "[voorkeur]", "[zasada]", "[reguła]", "[preferencja]",
        "[pravidlo]", "[preferens]", "[kural]", "[tercih]", "[aturan]", "[preferensi]", "[quy tắc]",
        "[ưu tiên]", "[правило]", "[предпочтение]", "[уподобання]", "[规则]", "[規則]", "[偏好]", "[ルール]",
        "[好み]", "[규칙]", "[선호]", "[قاعدة]", "[تفضيل]", "[כלל]", "[העדפה]", "[قاعده]", "[ترجیح]",
        "[नियम]", "[वरीयता]", "[กฎ]",
    ),
    "decision": (
        "[entscheidung]", "[décision]", "[decisión]", "[decisão]", "[decisione]", "[besluit]", "[beslissing]",
        "[decyzja]", "[rozhodnutí]", "[beslut]", "[karar]", "[keputusan]", "[quyết định]", "[решение]",
        "[рішення]", "[决定]", "[决策]", "[決定]", "[결정]", "[قرار]", "[החלטה]", "[تصمیم]", "[निर्णय]",
        "[การตัดสินใจ]",
    ),
    "fact": (
        "[fakt]", "[fait]", "[hecho]", "[fato]", "[facto]", "[fatto]", "[feit]", "[fakta]", "[faktum]",
        "[gerçek]", "[sự thật]", "[факт]", "[事实]", "[事實]", "[事実]", "[사실]", "[حقيقة]", "[עובדה]",
        "[واقعیت]", "[तथ्य]", "[ข้อเท็จจริง]",
    ),
    "correction": (
        "[korrektur]", "[corrección]", "[correção]", "[correzione]", "[correctie]", "[korekta]", "[poprawka]",
        "[oprava]", "[rättelse]", "[düzeltme]", "[koreksi]", "[đính chính]", "[исправление]", "[поправка]",
        "[виправлення]", "[更正]", "[纠正]", "[訂正]", "[정정]", "[تصحيح]", "[תיקון]", "[اصلاح]", "[सुधार]",
    ),
}
