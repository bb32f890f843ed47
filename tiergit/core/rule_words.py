"""A rule's or a convention's words in the languages the safeguard word lists read: "immer",
"nigdy", "preferimos", "必ず", "使用합니다" say in German, Polish, Portuguese, Japanese and Korean
what "always", "never", "we prefer", "must" and "we use" say in core/judge.py's plain-language
rules. Asked only after the English rules found no kind, and counted only for a text in another
language than English (core/textlang.py), so an English item's kind never changes here. Pure;
imports only `re`.

What is listed: the words that carry a standing instruction or convention (always, never, must,
should, prefer, "we use" / "is used"), each in its language's common written forms. A word that is
as often something else is left out (Polish and German "nie" are "not" and "never"; Italian "mai"
is also "ever"; Chinese 不要 is as often "don't worry"): a missed rule stays context, where a wrong
one would reach a promotion PR. A one-off or status line is the ephemeral check's, which runs
after the kind.
"""
from __future__ import annotations

import re

# Space-separated languages: whole words (a word's start, then its listed stem's forms).
_RULE_WORDS = (
    # de
    r"immer(?! noch)|niemals|nie wieder|muss|müssen|sollen|sollte|sollten|bevorzug\w*|grundsätzlich|ausschließlich|"
    r"verwenden wir|nutzen wir|wir verwenden|wir nutzen|setzen wir|wird verwendet|werden verwendet|"
    # fr
    r"toujours|jamais|doit|doivent|devrait|devraient|préfér\w*|nous utilisons|on utilise|est utilisé\w?|"
    # es / pt
    # (their forms of "prefer" listed whole: English "prefers", "preferences" share the stem)
    r"siempre|nunca|debe|deben|debería|deberían|prefiere|prefieren|preferimos|prefere|preferem|usamos|utilizamos|"
    r"sempre|deve|devem|deveria|"
    r"é usad[oa]|são usad[oa]s|se usa|se usan|"
    # it
    r"usiamo|utilizziamo|bisogna|dobbiamo|mai più|preferisce|preferiscono|preferiamo|"
    # nl
    r"altijd|nooit|moet|moeten|gebruiken we|we gebruiken|wij gebruiken|geeft de voorkeur|geven de voorkeur|"
    r"heeft de voorkeur|voorkeur voor|"
    # pl
    r"zawsze|nigdy|musi|muszą|musimy|należy|powin\w+|preferuj\w*|używamy|stosujemy|korzystamy z|"
    # cs
    r"vždy|nikdy|musí|musíme|má se|mají se|nesmí|preferuj\w*|upřednostňuj\w*|používáme|"
    # sv
    r"alltid|aldrig|måste|ska|bör|föredrar|vi använder|"
    # tr
    r"her zaman|daima|asla|hiçbir zaman|zorunda\w*|gerekir|gereklidir|tercih ed\w+|kullanıyoruz|kullanırız|"
    # id
    r"selalu|jangan|tidak pernah|harus|wajib|sebaiknya|lebih suka|kami menggunakan|kami memakai|"
    # vi
    r"luôn luôn|luôn|không bao giờ|không được|phải|nên|ưu tiên dùng|chúng tôi dùng|chúng tôi sử dụng|"
    # ru / uk
    r"всегда|никогда|должен|должна|должны|нужно|необходимо|нельзя|предпочита\w+|используем|"
    r"завжди|ніколи|повин\w+|потрібно|необхідно|не можна|надаємо перевагу|віддаємо перевагу|використовуємо|"
    # ar / he / fa / hi
    r"دائما|دائمًا|أبدا|أبدًا|يجب|لا يجب|نستخدم|תמיד|אף פעם|לעולם לא|חייב\w*|יש ל|אנחנו משתמשים|"
    r"همیشه|هرگز|باید|نباید|استفاده می‌کنیم|हमेशा|कभी नहीं|चाहिए|अवश्य|करना होगा"
)
# Scripts without spaces between words: the words anywhere in the text.
_RULE_CHARS = (
    r"必须|务必|禁止|始终|一律|统一使用|统一用|总是使用|优先使用|不得|更喜欢|偏好使用|倾向于使用|"  # zh
    r"必ず|常に|べき|すること。|しないこと|を好む|を優先|を使う。|を使用する。|使わない|"   # ja (禁止 above)
    r"항상|반드시|절대|해야|하지 않는다|사용한다|사용합니다|선호|"                 # ko
    r"เสมอ|ห้าม|ต้อง|ควร"                                                        # th
)
RULE_WORDS_RE = re.compile(r"(?<!\w)(?:" + _RULE_WORDS + r")(?!\w)|" + _RULE_CHARS, re.IGNORECASE)
# The long pattern runs only on a text that holds one of its entries' first words (or a stem's
# start, or a character of a script without spaces): ~2 µs a line, not ~13 µs, on the corpus.
_ENTRIES = _RULE_WORDS.split("|")
_FIRST_WORDS = frozenset(e.split()[0] for e in _ENTRIES if re.fullmatch(r"\w+", e.split()[0]))
_STEMS_RE = re.compile(r"(?<!\w)(?:" + "|".join(
    sorted({re.escape(re.split(r"[\\(\[]", e.split()[0])[0]) for e in _ENTRIES if e.split()[0] not in _FIRST_WORDS}))
    + ")")
_WORD_RE = re.compile(r"\w+")
# Scripts the word split does not serve: no spaces (CJK, Thai), or marks inside words (Devanagari,
# Arabic's tanween): the long pattern runs on any text in them.
_SPACELESS_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\u0e00-\u0e7f\u0900-\u097f\u064b-\u065f]")


def rule_word(text: str) -> str | None:
    """The first standing-instruction word in the text, or None."""
    low = text.lower()
    if _FIRST_WORDS.isdisjoint(_WORD_RE.findall(low)) and not _STEMS_RE.search(low) and (
            low.isascii() or not _SPACELESS_RE.search(low)):
        return None
    m = RULE_WORDS_RE.search(text)
    return m[0] if m else None


# A convention stated with no rule word, as core/judge.py's CONVENTION reads English ("All dates are
# returned in UTC", "New services are written in Go"): a universal opening ("Wszystkie daty …",
# "所有对外接口 …", "모든 API 응답 …"), or a present passive whose tense says "as a habit" (German and
# Dutch "werden … geschrieben", "worden … gebouwd"; Italian "vengono … salvati"). Passives whose
# form is also a past report or a state (French "est passé", Polish "jest zamknięty") are left out.
_UNIVERSAL = (r"alle|jede[rsn]?|tous les|toutes les|chaque|todos (?:los|os)|todas (?:las|as)|cada|tutt[ie] (?:i|le|gli)|"
              r"ogni|elke|iedere?|wszystkie|wszyscy|każd[ya]|każde|všechny|každ[ýáé]|alla|varje|tüm|bütün|semua|"
              r"setiap|tất cả|mọi|mỗi|все|каждый|каждая|каждое|усі|всі|кожен|кожна|кожне|كل|כל|हर")
UNIVERSAL_OPENING_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*[^*\n]{1,40}\*\*[:：]?\s*)?(?:(?:" + _UNIVERSAL + r")\s+\w|所有|"
    r"每个|每一|一律|すべての|全ての|各[\u4e00-\u9fff\u30a0-\u30ff]|모든\s|각\s)"
    r"|^[^，。；!?！？我\n]{0,15}?(?:所有|每个|每一个|每条|每张|每次)[^，。；\n]{1,30}?都", re.IGNORECASE)   # "…每个工单都…"
# The auxiliary in a main clause: second after a subject of at most five words ("Neue Dienste werden …"),
# not in a subordinate clause ("… wanneer beweging wordt gedetecteerd") or an infinitive ("te worden").
HABITUAL_PASSIVE_RE = re.compile(
    r"(?i)^\s*(?:[-*+]\s+)?(?!(?:wir|ich|du|ihr|we|ik|wij|jij)\s)(?:[^\s.;,!?:]+\s+){1,5}?"
    r"(?:(?:wird|werden|wordt|worden)\s[^.;,!?\n]{1,80}?\bge\w{3,}(?:t|en|d)\b|(?:viene|vengono)\s+(?:\w+\s+){0,2}?"
    r"\w+(?:at|ut|it)[oaie]\b|[а-яё]{3,}(?:ется|ится|ются|ятся)\b)")   # Russian: "хранится", "считаются"


# "We" and a present-tense verb opening the line: what the team does as a habit ("Nous gardons un CHANGELOG par
# service", "Wir speichern Zeitstempel in UTC", "Мы храним переводы в locales/", "我们统一把定时任务放在 jobs/").
# English has judge.CONVENTION. Left out: the auxiliaries of a past, a future or a state ("nous avons", "wir
# werden", "vi har", "мы будем"), a pronoun-dropping language without its pronoun (Spanish "guardamos" is also
# "we kept"), except Polish and Turkish, whose present endings say "we" and not the past.
FIRST_PLURAL_HABIT_RE = re.compile(
    r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*[^*\n]{1,40}\*\*[:：]?\s*)?(?:"
    r"nous (?!(?:avons|allons|sommes|étions|avions|venons)\b)\w{3,}ons\b"
    r"|wir (?!(?:haben|hatten|werden|wollen|waren|sind|gehen|gingen|wurden|arbeiten gerade)\b)\w{3,}n\b"
    r"|(?:we|wij) (?!(?:hebben|hadden|zullen|gaan|gingen|waren|zijn|willen|werden)\b)\w{3,}en\b"
    r"|vi (?!(?:har|hade|ska|skulle|var|är|gick|kommer)\b)\w{3,}r\b"
    r"|(?:nosotros|nós|noi) (?!(?:vamos|hemos|temos|abbiamo|stiamo|estamos|estávamos|fomos|fuimos)\b)\w{3,}(?:amos|emos|imos|iamo)\b"
    r"|мы (?!(?:были|будем|будут)\b)[а-яё]{3,}(?:ем|им|ём)\b"
    r"|(?:my\s+)?[^\W\d_]{3,}(?:amy|emy|imy|ymy)\s"
    r"|(?:biz\s+)?[^\n.;]{0,60}?\w(?:uyoruz|üyoruz|ıyoruz|iyoruz|arız|eriz)[.!]?\s*$"
    r"|我们(?:都|一律|统一|一般|通常|总是|平时|一直|习惯|把[^，。；\n]{1,20}?(?:统一|都|一律))"
    r"|(?:私たち|我々|弊社|うちのチーム)(?:は|では)[^。\n]{2,60}(?:ています|ております|ます)。?\s*$"
    r"|우리(?:는| 팀은)[^.\n]{2,60}(?:합니다|한다|해요|습니다)\.?\s*$)")


def convention(text: str) -> str | None:
    """A universal opening, a habitual passive or a "we" habit in another language than English, or None
    (the caller asks core/textlang.py whether the text is English)."""
    m = UNIVERSAL_OPENING_RE.match(text) or HABITUAL_PASSIVE_RE.match(text) or FIRST_PLURAL_HABIT_RE.match(text)
    return m[0].strip() if m else None
