"""Text that was true for a moment, not a standing fact: the promotion gate's `ephemeral` check,
and the shell-command shape its `junk` check adds to the judge's. Pure; imports only `re`.

One-off words are listed in the eight languages the safeguard judgement reads (a German "gerade",
a Russian "сейчас" is as ephemeral as "right now"); a recurring time ("from 18:00 UTC on Fridays",
"每周一 09:00") is a standing fact.
"""
from __future__ import annotations

import re

CRON_RE = re.compile(
    r"(?i)\b(?:cron|scheduled (?:job|task)|heartbeat)\b.{0,100}\b(?:deliver\w*|sent|succeeded|failed|"
    r"completed|ran|posted|status|ok)\b|\bdelivery (?:report|status|receipt)\b")
TIME_RE = re.compile(r"(?<![\d.])(?:\d{4}-\d{2}-\d{2}[T ])?(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:Z|\s?UTC|[+-]\d{2}:?\d{2})?(?!\d)")
RECURRING_RE = re.compile(r"(?i)\b(?:every|each|daily|nightly|weekly|monthly|hourly|always|never|runs? at|from \S+ (?:utc )?(?:to|until|on)|"
                          r"on (?:mon|tues|wednes|thurs|fri|satur|sun)days|weekdays|weekends|cron"
                          # the same in the languages the one-off words below are read in
                          r"|jeden|jede|täglich|wöchentlich|monatlich|nächtlich|chaque|tous les (?:jours|soirs|mois)|"
                          r"quotidien\w*|cada|todos los días|diariamente|todo dia|todos os dias|ogni|giornalier\w+|"
                          r"elke|iedere?|dagelijks|wekelijks|maandelijks|nachtelijk\w*|codziennie|każd\w+|co(?:dziennie|tygodniowo)|"
                          r"каждый|каждую|каждое|каждой|ежедневно|еженедельно|ежемесячно|ночн\w+|her (?:gün|hafta|ay|gece)|"
                          r"günlük|haftalık|aylık)\b|每[天日周月年晚]|每个?(?:周|星期|礼拜)|(?:周|星期|礼拜)[一二三四五六日天]|"
                          r"毎[日週月朝晩時]|매[일주월]")
ONE_OFF_RE = re.compile(
    r"(?i)'s ask\W{0,4}:|^temporary\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day's\b|\b(?:today(?!(?-i:'s [A-Z]))|yesterday|tonight|this morning|this afternoon|this evening|"
    r"just now|right now|earlier today|this session|currently|at the moment|(?:is|are) (?:\w+ing|running) now|"
    r"(?:\d+|a few|five|ten|two|three) (?:minutes?|hours?) ago|last (?:week|night)(?:'s)?|this week|next week|(?:for )?this sprint|next sprint|tomorrow|for now|for the time being"
    r"|(?:seems |looks )?(?:fine|ok|stable|green) now|(?:rerunning|retrying|restarting) now"
    r"|(?:merged|closed|reverted|deployed|shipped|restarted|reran) (?:pr )?#\d+|out until|on leave|out of office|\booo"
    r"|after lunch|later today|let'?s revisit|(?:moved|postponed|rescheduled|pushed) to (?:\d\w*|mon\w*|tue\w*|wed\w*|thu\w*|fri\w*|tomorrow|next)"
    r"|we used to|back in (?:19|20)\d\d|back then|at the time|in those days|(?:for|in) this release|^bump(?:ed)? (?:the )?version"
    r"|(?:in|on|during|at|bij|na) (?:the |de )?(?:last|latest|laatste) run|^(?:will|i'll|i will|we'll|going to|gonna|next i'll) "
    r"|after standup|^(?:sorry|perdón|perdon|desculp\w*|excuse)\b|^(?:maybe|perhaps|talvez|quizás|tal vez|misschien|może)\b"
    r"|command i ran|^remember to\b|(?:is|are) (?:broken|down|out) again|^found this\b|\bfunny\b|\basdf\b|^never ?mind\b"
    r"|\b(?:it'?s )?raining\b|\bregent\b|ben zo terug|even pauze|\bnu\b|neste momento|ainda está|(?:em|in) \d+ (?:minutos|minutes)"
    r"|\b\d{1,2}h\d{2}\b|naquela época|en aquella época|toen nog|wtedy|vandaag|gisteren|op dit moment|teraz|dzisiaj|wczoraj|jutro|obecnie|continuing from|where were we|(?:the )?previous session)\b"
    r"|(?<!jeden )(?<!am )(?<!guten )(?<!heute )(?<!gestern )(?<!elke )(?<!iedere )\b(?:über)?morgen\b(?! früh)"   # "tomorrow", not "jeden Morgen"
    r"|\b(?:heute|gestern|gerade|jetzt|vorhin|aujourd'hui|hier soir|tout de suite|en ce moment|maintenant|hoy|ayer|ahora|"
    r"en este momento|hace (?:\w+ )?(?:minutos|horas)|hoje|ontem|agora|сегодня|вчера|сейчас"
    r"|vorübergehend|derzeit|momentan|aktuell|diese woche|heute abend|temporalmente|actualmente|por ahora|esta noche|esta semana"
    r"|la semana pasada|mañana|temporariamente|atualmente|por enquanto|amanhã|temporaire(?:ment)?|actuellement|pour l'instant"
    r"|cette semaine|demain|ce soir|временно|на этой неделе|завтра"
    r"|stamattina|oggi|ieri|domani|adesso|in questo momento|stasera|in progress|\d{1,3} ?% (?:done|complete\w*|fertig|finito|completat\w*|terminé|hecho|conclu\w*)"
    r"|em andamento|aguardando|en curso|en cours|in corso|läuft gerade|in arbeit"
    r"|(?:el|la) (?:lunes|martes|miércoles|jueves|viernes|sábado|domingo|semana|mes) pasad[oa]|hôm qua|hôm nay|lúc \d+ giờ)\b|^temporal\s*:"
    r"|\b(?:idag|igår|i går|imorgon|i morgon|just nu|den här veckan|förra veckan|nästa vecka|för tillfället|tillfälligt"
    r"|chwilowo|tymczasowo|do końca dnia|w tym tygodniu|w przyszłym tygodniu|w zeszłym tygodniu|przed chwilą"
    r"|hari ini|kemarin|besok|minggu ini|untuk sementara|tuần này|ngày mai|tạm thời|until (?:the )?end of (?:the )?day|until eod)\b"
    r"|今天|昨天|现在|刚才|今日|昨日|さっき|いま(?![すせし])|临时|暂时|目前|本周|这周|明天|今晚|上周|一時的|今週|明日|今夜|先週|先月|来週|현재|지금|오늘|어제|내일|이번 주|다음 주|지난주|임시로|진행 중|나중에|上次|这次|本次|当时|那时|방금|점심|ㅋㅋ")
STATUS_RE = re.compile(
    r"(?i)^(?:waiting (?:for|on)|working on|thanks\b|thank you\b|see (?:above|below)\b|meeting notes\b)|\bstep \d+ of \d+\b"
    # chat: a reference to one's last message, a note to self, filler, a status emoji, a question, a short reply, a typo
    r"|\b(?:in )?my (?:last|previous) (?:message|reply|comment)\b"
    r"|^(?:todo|to-do|fixme|tbd|note to self|reminder|notiz an mich|erinnerung|promemoria|recordatorio|rappel|lembrete)\b"
    r"|^(?:lol|haha|yeah|yep|nope)\b|^[✅❌⏳🔄🚧🟢🔴🟡]"
    r"|^(?:standup|stand-up|meeting|sync|retro|riunione|reunión|réunion|besprechung|reunião)\b[^:]{0,24}\d[^:]{0,12}:|\d+월 \d+일 회의"
    r"|^[^.!:\n]{3,200}\?\s*$|^(?:ok(?:ay)?|sure|sounds good|got it|thanks|np|cool)\b[^.]{0,30}$|^typo\b|\btypo (?:above|below)\b"
    r"|^had an? (?:quick |short )?(?:sync|call|chat|meeting)\b|\b(?:is|are) (?:still )?(?:in progress|in review|blocked|pending)\b"
    r"|\b(?:build|run|job|pipeline)\s+#\d+|\b(?:is|are) (?:sitting|waiting) in\b"
    r"|\b(?:build|run|job|pipeline|deploy)\s+#?[\w.-]*\d[\w.-]*\s+(?:is|was)\s+(?:green|red|running|failing|passing|done)\b"
    r"|\bsee (?:above|below)\b")
# A state tied to one release ("Dreaming is experimental feature in 2026.4.5"): true until the next one.
RELEASE_STATE_RE = re.compile(
    r"(?i)\b(?:is|are)\s+(?:(?:an?|still|currently)\s+)?(?:experimental|beta|alpha|in preview|preview|unstable|"
    r"not yet (?:supported|available))\b[^.;]{0,40}?\b(?:in|as of|since|on)\s+v?\d+(?:\.\d+){1,3}\b")
RESOLVED_ISSUE_RE = re.compile(r"(?i)\b(?:issue|bug|ticket|incident|outage|problem|pr|#\d+)\b[^.;]{0,80}?\b"
                               r"(?:is |was |now |has been |got )?(?:resolved|closed|fixed|merged)\b")
REQUIREMENT_RE = re.compile(r"(?i)\b(?:before|until|once|must|should|cannot|can't|to be)\b[^.;]{0,24}$")
SHELL_RE = re.compile(
    r"^(?:`|\$\s|(?:sudo|git|npm|npx|pnpm|yarn|pip3?|python3?|uv|docker|kubectl|curl|wget|rm|cd|ls|cat|"
    r"make|cmake|ninja|meson|gradle|mvn|dotnet|cargo|go|node|bash|sh|az|gh|chmod|mv|cp|tiergit|openclaw|pwsh)\s)")
COMMAND_SHAPE = re.compile(r"\s--?[a-zA-Z]|\$\(|\|\s*\w|&&|\bHEAD~\d")


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def ephemeral(text: str) -> str | None:
    """Why the text is a one-off (a cron report, a resolved issue, a timestamp, an event, a progress
    or status line), or None."""
    low = text.lower()
    if any(w in low for w in ("cron", "scheduled", "heartbeat", "delivery")) and CRON_RE.search(text):
        return "ephemeral: a cron / delivery report, not durable knowledge"
    m = RESOLVED_ISSUE_RE.search(text) if any(w in low for w in ("resolved", "closed", "fixed", "merged")) else None
    if m and not REQUIREMENT_RE.search(m[0]):   # "needs a review before it is merged" is a rule
        return f"ephemeral: a resolved issue (\"{_short(m[0], 40)}\")"
    m = TIME_RE.search(text) if ":" in text and not RECURRING_RE.search(text) else None
    if m:
        return f"ephemeral: a one-off timestamp ({m[0].strip()})"
    body = _body(text)
    m = ONE_OFF_RE.search(body)
    if m:
        return f"ephemeral: a one-off event (\"{m[0]}\")"
    m = STATUS_RE.search(body)
    if m:
        return f"ephemeral: a progress or status line (\"{_short(m[0], 40)}\")"
    m = RELEASE_STATE_RE.search(body)
    if m:
        return f"ephemeral: a state at one release (\"{_short(m[0], 48)}\")"
    return None


def _body(text: str) -> str:
    """The text without a leading `[kind]` or `**Label:**` (so "Temporary:" and "Thanks" start it)."""
    return re.sub(r"^\s*(?:[-*+]\s+)?(?:\[\w+\]\s*)?(?:\*\*[^*\n]{1,40}\*\*:?\s*)?", "", text)


def shell_command(text: str) -> str | None:
    """A bare shell command line (`cmake --build build -j$(nproc)`), by its first word and its flags."""
    body = _body(text).strip()
    whole = re.fullmatch(r"`([^`\n]+)`\.?", body)
    body = whole[1] if whole else body
    if not body.startswith("`") and SHELL_RE.match(body) and (body.startswith("$") or COMMAND_SHAPE.search(body)):
        return "a shell command"
    return None
