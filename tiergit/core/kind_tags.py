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

# English bold labels' words as tags: `**Lesson:**` is a rule, so is `[lesson]`, as `[lección]` is. Read,
# not shown in the agent instructions (which list `[rule]` and `[preference]`).
LABEL_TAGS: dict[str, tuple[str, ...]] = {
    "rule": ("[pattern]", "[anti-pattern]", "[lesson]", "[learning]", "[insight]", "[convention]"),
    "fact": ("[constraint]",),
}

# Bold labels (`**Entscheidung:**`, `**Konvence:**`, `**決定：**`) in the same languages, read as
# `**Decision:**`, `**Convention:**` are: a kind's words for decision; rule, pattern, lesson,
# convention, preference, principle, guideline; fact, constraint; correction; each also as a tag
# (`[konwencja]`). A word that in its language as often names something else (French "modèle" a
# model, Vietnamese "ưu tiên" a priority) is left out; Portuguese "padrão" (a pattern, a standard or
# a default) is a rule in all three.
TRANSLATED_LABEL_WORDS: dict[str, tuple[str, ...]] = {
    "decision": (
        "entscheidung", "beschluss", "décision", "decisión", "decisão", "decisione", "besluit", "beslissing",
        "decyzja", "rozhodnutí", "beslut", "karar", "keputusan", "quyết định", "решение", "рішення", "决定",
        "决策", "決定", "決定事項", "결정", "결정 사항", "قرار", "החלטה", "تصمیم", "निर्णय", "การตัดสินใจ",
    ),
    "rule": (
        "regel", "muster", "lektion", "konvention", "präferenz", "prinzip", "richtlinie", "grundsatz",
        "règle", "leçon", "convention", "préférence", "principe", "regla", "patrón", "lección", "convención",
        "preferencia", "principio", "pauta", "regra", "lição", "convenção", "preferência", "princípio",
        "diretriz", "padrão", "regola", "lezione", "convenzione", "preferenza", "linea guida", "patroon", "conventie",
        "voorkeur", "richtlijn", "zasada", "reguła", "wzorzec", "lekcja", "konwencja", "preferencja",
        "wytyczna", "pravidlo", "vzor", "poučení", "lekce", "konvence", "zásada", "mönster", "lärdom",
        "preferens", "princip", "riktlinje", "kural", "desen", "ders", "ilke", "tercih", "aturan", "pola",
        "pelajaran", "konvensi", "preferensi", "prinsip", "pedoman", "quy tắc", "bài học", "quy ước",
        "nguyên tắc", "правило", "паттерн", "урок", "соглашение", "предпочтение", "принцип", "патерн",
        "домовленість", "уподобання", "规则", "规范", "教训", "经验", "约定", "惯例", "偏好", "原则", "ルール",
        "規則", "パターン", "教訓", "規約", "慣例", "方針", "原則", "규칙", "패턴", "교훈", "규약", "관례", "원칙",
        "선호", "قاعدة", "نمط", "درس", "تفضيل", "مبدأ", "כלל", "דפוס", "לקח", "מוסכמה", "העדפה", "עיקרון",
        "قاعده", "الگو", "ترجیح", "اصل", "नियम", "पैटर्न", "सबक", "परिपाटी", "वरीयता", "सिद्धांत", "กฎ",
        "บทเรียน", "ข้อตกลง", "หลักการ",
    ),
    "fact": (
        "fakt", "tatsache", "einschränkung", "fait", "contrainte", "hecho", "restricción", "fato", "facto",
        "restrição", "fatto", "vincolo", "feit", "beperking", "ograniczenie", "omezení", "faktum",
        "begränsning", "gerçek", "kısıt", "kısıtlama", "fakta", "batasan", "kendala", "sự thật", "ràng buộc",
        "факт", "ограничение", "обмеження", "事实", "事實", "约束", "限制", "事実", "制約", "사실", "제약",
        "حقيقة", "قيد", "עובדה", "אילוץ", "واقعیت", "محدودیت", "तथ्य", "बाधा", "ข้อเท็จจริง", "ข้อจำกัด",
    ),
    "correction": tuple(tag[1:-1] for tag in TRANSLATED_TAGS["correction"]),
}
