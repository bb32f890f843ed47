"""What a line does, not what it says: a greeting, thanks or an apology, a guess, waiting on someone,
a progress figure, a note about the notes, a recap of one session, a hand-off, an all-clear, an incident
on one date, a console's output. None of it is
something a later session can act on, whatever kind label or tag its author gave it ("[fact] Good
morning team! 👋", "**Lesson:** might be the cache? not sure yet"). The promotion gate's `junk` check
asks here after the judge's shapes and the shell-command shape. Pure; imports only `re`.

Each act is one pattern, listed in the languages the rule words and one-off words read (en, de, fr,
es, pt, it, nl, sv, pl, ru, tr, vi, id, ja, zh, ko). Most acts must open the line (its kind tag or
bold label left out): "Thanks to the cache, cold starts take 2 s" and "If unsure, ask the owner"
are knowledge; "Thanks!" and "Maybe the parser?" are not. A greeting or thanks must also be short:
a real item rarely follows one, and when it does its content is judged, not its opening.
"""
from __future__ import annotations

import re

# A kind tag or bold label, list marker or quote first: what follows is what the line does.
_LEAD_RE = re.compile(r"^\s*(?:[-*+>]\s+)*(?:\[[^\]\n]{1,24}\]\s*)?(?:\*\*[^*\n]{1,40}\*\*\s*[:：]?\s*)?")
_WORD_RE = re.compile(r"[^\W\d_]+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
SHORT_WORDS = 12     # a greeting or thanks this long or shorter is the whole line
SHORT_CJK = 24
INCIDENT_WORDS = 25  # an incident report this short, dated near its start, is the event alone

# Opens the line and the line is short. "(?![\w-])" ends a word ("Hi-DPI" is no greeting).
GREETING_RE = re.compile(
    r"(?i)^(?:good (?:morning|afternoon|evening|night)|(?:hi|hello|hey|hiya|howdy|greetings)(?: (?:all|team|everyone|folks|there|y'all|guys))?"
    r"|morning (?:all|team|everyone)|happy (?:monday|tuesday|wednesday|thursday|friday|weekend|new year|holidays)"
    r"|have a (?:nice|good|great) (?:day|weekend|evening)|see you|bye|cheers"
    r"|guten (?:morgen|tag|abend)|hallo(?: (?:zusammen|alle|allerseits|allemaal))?|moin|servus|schönes wochenende|tschüss"
    r"|bonjour|bonsoir|salut|bonne (?:journée|soirée|semaine)|bon week-end"
    r"|buen(?:os|as) (?:días|tardes|noches)|hola|buen fin de semana|feliz (?:lunes|viernes|semana)"
    r"|bom dia|boa (?:tarde|noite)|olá|oi|bom fim de semana"
    r"|buongiorno|buonasera|ciao|salve|buon (?:lunedì|weekend|fine settimana|lavoro)"
    r"|goedemorgen|goedemiddag|goedenavond|hoi|fijne (?:dag|avond|weekend)"
    r"|god (?:morgon|kväll)|hej(?: (?:allihop|alla))?|tjena|trevlig helg"
    r"|dzień dobry|cześć|miłego (?:dnia|weekendu)|доброе утро|добрый (?:день|вечер)|(?:всем )?привет"
    r"|günaydın|merhaba|iyi (?:günler|akşamlar)|xin chào|chào (?:buổi sáng|mọi người|cả nhà)"
    r"|selamat (?:pagi|siang|sore|malam)|halo(?: semua)?)(?![\w-])"
    r"|^(?:おはよう|こんにちは|こんばんは|お疲れ様|お疲れさま|早上好|早安|大家好|你好|晚安|下午好|안녕하세요|좋은 아침)")
THANKS_RE = re.compile(
    r"(?i)^(?:thanks|thank you|thx|many thanks|danke|vielen dank|merci|gracias|obrigad[oa]|grazie|bedankt|dank je(?: wel)?"
    r"|tack|dzięki|dziękuję|спасибо|teşekkürler|cảm ơn|terima kasih"
    r"|sorry|apologies|entschuldigung|désolée?|perdón|lo siento|desculp[ae]|scusa(?:te)?|förlåt|ursäkta|przepraszam"
    r"|извините|простите|özür dilerim|xin lỗi|maaf)(?![\w-])(?! to\b| für\b| à\b| a\b)"
    r"|^(?:ありがとう|すみません|申し訳|谢谢|感谢|抱歉|对不起|감사합니다|고마워|죄송합니다|미안)")
INTERJECTION_RE = re.compile(r"(?i)^(?:hmm+|huh|ugh|meh|oops|whoa|argh|lol|haha|hehe|ahh+|ohh+|welp)(?![\w-])")
# A guess or a question left open, opening the line or any of its lines ("maybe the bug is in the parser?").
GUESS_RE = re.compile(
    r"(?im)^\s*(?:maybe|perhaps|might be|could be|i (?:think|guess|suspect)(?! (?:in|about|of|through)\b)|thinking out loud|not sure"
    r"|vielleicht|ich glaube|ich vermute|peut-être|je pense que|quizás?|tal vez|creo que|talvez|acho que|forse|credo che"
    r"|misschien|ik denk|kanske|jag tror|może|chyba|наверное|может быть|возможно|belki|muhtemelen|có lẽ|mungkin"
    r"|möglicherweise|eventuell|éventuellement|posiblemente|possivelmente|possibilmente|mogelijk|probabilmente)(?![\w-])"
    r"|^\s*(?:たぶん|多分|おそらく|也许|大概|或许|可能是|아마)"
    r"|^\s*q\s*[:：](?![\s\S]*\ba\s*[:：])")   # "Q: …?" with no "A:" after it: a question nobody answered
# Doubt anywhere: no sentence a reviewer could keep as settled.
UNSURE_RE = re.compile(
    r"(?i)\b(?:not sure(?: yet)?|no idea|idk|unclear why|weiß (?:ich )?nicht|keine ahnung|pas sûr|no estoy segur[oa]"
    r"|não sei|non so|non sono sicur[oa]|weet (?:ik )?niet|vet inte|nie wiem|не знаю|emin değilim|không chắc|tidak yakin)\b"
    r"|(?:,\s*|\s)(?:maybe|perhaps|forse|kanske|vielleicht|peut-être|quizás|talvez|misschien|może|chyba)\W*$"
    r"|(?:わからない|分からない|不确定|不知道|모르겠\w*)[。.!！?？\s]*$")   # at the end: "不确定时…" opens a rule
WAITING_RE = re.compile(
    r"(?i)^(?:still )?waiting (?:for|on)\b|\b(?:warten|warte) noch auf\b|\bwir warten\b|\bin attesa (?:di|del|della|dello|dei|delle)\b"
    r"|\ben attente d|\bon attend\b|\besperando (?:a|la|el|respuesta)\b|\baguardando\b|\bwachten (?:nog )?op\b|\bwe wachten\b|\bväntar på\b"
    r"|\bczeka(?:m|my) na\b|\bждём\b|\bждем\b|\bожидаем\b|\bbekliyoruz\b|\bđang chờ\b|^menunggu\b"
    r"|を待って|待ちです|待ち状態|正在等|还在等|等待.{0,12}(?:回复|反馈)|기다리는 중|기다리고 있")
PROGRESS_RE = re.compile(
    r"(?i)(?:\bprogress|fortschritt|avanzamento|progreso|progresso|progrès|voortgang|framsteg|postęp|прогресс|ilerleme"
    r"|tiến độ|kemajuan|進捗|进度|진행률)\s*[:：]?\s*\d{1,3}\s?%|^eta\b\s*(?:[:：]|per\b|for\b|für\b|pour\b|para\b|voor\b|för\b|dla\b)"
    r"|\d{1,3}\s?% (?:klar|gotowe|done|complete)|実行中|進行中|対応中|作業中|进行中|执行中|处理中|운영 중단")
# The line is about the notes, not the work: a typo fixed, a test entry.
ABOUT_NOTES_RE = re.compile(
    r"(?i)^(?:typo|tippfehler|coquille|faute de frappe|refuso|errata|stavfel|literówk\w*|опечатк\w*|yazım hatası"
    r"|lỗi chính tả|salah ketik)\b|^(?:誤字|错别字|笔误|오타)"   # opening the line: "no typo tolerance" is a decision
    r"|\b(?:just testing|ignore this|nur ein test|ignore ça|solo (?:una )?prueba|ignora (?:esto|questo)|só testando"
    r"|alleen een test|negeer dit|testar bara|bry dig inte om|tylko test|zignoruj|просто тест|sadece test|abaikan ini)\b")
# (core/sentence_judge.NOTHING_NEW reads a session's sentences for the same, in English and Chinese, to condense
# them; changing it would move compaction, so the gate's 16 languages are listed here.)
NOTHING_NEW_RE = re.compile(
    r"(?i)\b(?:nothing new|niente di nuovo|nichts neues|rien de nouveau|nada (?:de )?nuevo|nada de novo"
    r"|niets nieuws|inget nytt|nic nowego|ничего нового|yeni bir şey yok|không có gì mới|tidak ada yang baru)\b"
    r"|没有新|无新事项|新しいことはない|特になし|새로운 (?:것은|내용은?) 없")
# An all-clear: everything is fine right now ("所有项目状态稳定，无阻塞项", "no blockers, all green").
ALL_CLEAR_RE = re.compile(
    r"(?i)\bno blockers\b|\ball (?:systems )?(?:green|nominal)\b|\beverything (?:is )?(?:green|fine|stable|running smoothly)\b"
    r"|\balles (?:grün|stabil|läuft)\b|\btout est (?:vert|stable|ok)\b|\btodo (?:en orden|estable|va bien)\b|\btudo (?:ok|estável|certo)\b"
    r"|\btutto (?:ok|stabile|regolare)\b|\balles (?:in orde|stabiel)\b|\ballt (?:ok|stabilt|grönt)\b|\bwszystko (?:działa|stabilne|ok)\b"
    r"|\bвсё (?:работает|стабильно|в порядке)\b|无阻塞|状态稳定|一切正常|均正常|运行正常|すべて正常|問題なし|모두 정상|이상 없음")
CONDITION_RE = re.compile(r"(?i)\b(?:if|when|once|unless|until|wenn|falls|sobald|si|se|als|zodra|om|när|jeśli|gdy|если|eğer)\b|如果|若|一旦|場合|경우")
# One incident on one day: a date and an outage in the past ("Incident on 2024-03-12: checkout was down …").
DATED_RE = re.compile(r"\b(?:19|20)\d\d-\d\d-\d\d\b|\b\d{1,2}\.\d{1,2}\.(?:19|20)\d\d\b")
INCIDENT_RE = re.compile(r"(?i)\b(?:was|were|went) (?:down|offline|unavailable|unreachable|broken|out)\b|\b(?:crashed|outage|incident)\b")
# What one session did, reported as it happened: a recap, a person's own clicks, a quoted reply.
SESSION_RE = re.compile(
    r"(?i)^(?:session (?:summary|recap|notes?)|sitzungs(?:zusammenfassung|notizen)|résumé de (?:la )?session"
    r"|resumen de (?:la )?sesión|resumo da sessão|riepilogo (?:della )?sessione|samenvatting van de sessie"
    r"|sammanfattning av sessionen|podsumowanie sesji|итоги сессии|oturum özeti|tóm tắt phiên|ringkasan sesi)\s*[:：]"
    r"|^(?:セッション(?:まとめ|要約)|会话总结|本次会话|세션 요약)"
    r"|^(?:i |we )?spent (?:about |around |nearly |almost |over |most of )?(?:an? |the |\d+(?:[.,]\d+)? |one |two |three |half )"
    r"(?:hour|hours|minutes|day|days|morning|afternoon|evening|session)\b"
    r"|^(?:(?:i'?m|i am|we'?re) )?(?:just )?back from (?:vacation|holiday|leave|pto|sick leave|the conference)\b|\bcatching up on\b"
    r"|\bzurück aus dem urlaub\b|\bde retour de (?:vacances|congé)\b|\bde vuelta de (?:vacaciones|las vacaciones)\b"
    r"|\bdi ritorno dalle ferie\b|\bterug van vakantie\b|\bvoltei de férias\b|\bвернул(?:ся|ась) из отпуска\b|\bizinden döndüm\b"
    r"|休假回来|休暇明け|휴가에서 복귀"
    r"|\bI (?:just )?(?:opened|skimmed|clicked|browsed|chatted|talked)\b|\bwe (?:chatted|talked) (?:about|with)\b"
    r"|\b(?:the )?user (?:said|wrote|replied|typed)\s*[\"“„'«]|\b(?:der )?(?:nutzer|benutzer) (?:sagte|schrieb)\s*[\"“„'«]"
    r"|\bl'utilisateur a (?:dit|écrit)\s*[\"“„'«]|\bel usuario (?:dijo|escribió)\s*[\"“„'«]|\bo usuário (?:disse|escreveu)\s*[\"“„'«]"
    r"|\bl'utente ha (?:detto|scritto)\s*[\"“„'«]|\bde gebruiker (?:zei|schreef)\s*[\"“„'«]|\banvändaren (?:sa|skrev)\s*[\"“„'«]"
    r"|\bużytkownik (?:napisał|powiedział)\s*[\"“„'«]|\bпользователь (?:написал|сказал)\s*[\"“„'«]")
# Work handed to someone now ("I'm handing this to Pieter", "Le paso el ticket a Lucía").
HANDOFF_RE = re.compile(
    r"(?i)^(?:i'?m |i am )?hand(?:ing|ed) (?:this|it|the \w+) (?:over |off )?to\b|^(?:ich )?gebe (?:das|es|dies) an \w+ (?:ab|weiter)\b"
    r"|^je (?:passe|transmets) (?:ça|cela|le \w+) à\b|^(?:le|te) paso\b|^passo (?:il|lo|questo) \w*\s*a\b"
    r"|^ik geef (?:dit|het|deze) door aan\b|^jag lämnar över\b|^przekazuję\b|^передаю\b")
# A state that just changed back ("FYI the coffee machine is fixed", "läuft wieder"): news, not knowledge. "Is
# fixed" alone is also "does not change" ("the seed order is fixed"), so it needs "now", "FYI" or "has been".
JUST_CHANGED_RE = re.compile(
    r"(?i)\b(?:is|are) now (?:fixed|repaired|back(?: up| online)?|working again)\b|\b(?:has|have) been (?:fixed|repaired)\W*$"
    r"|\b(?:is|are) (?:fixed|repaired|back up|working again) now\b|^fyi\b[^.]*\b(?:is|are) (?:fixed|repaired|back)\b"
    r"|\b(?:funktioniert|läuft) wieder\b"
    r"|\bmarche à nouveau\b|\bfunciona (?:de nuevo|otra vez)\b|\bfunziona di nuovo\b|\bwerkt weer\b|\bfungerar igen\b"
    r"|\b(?:znowu|już) działa\b|\bснова работает\b|又能用了|已恢复正常|復旧しました|다시 작동")
# A reminder for one day or hour ("don't forget to send Jisu the report on Thursday at 3 pm", "别忘了周五报名"):
# without a day or an hour a reminder may be a standing rule ("Don't forget to run migrations before deploying").
REMINDER_RE = re.compile(
    r"(?i)\b(?:don'?t forget|do not forget|remember to|vergiss nicht|nicht vergessen|n'oubliez pas|ne pas oublier|no olvides"
    r"|no olvidar|não esqueça|não esquecer|non dimenticare|vergeet niet|glöm inte|nie zapomnij|не забудь\w*|unutma\w*"
    r"|đừng quên|jangan lupa)\b|忘れずに|忘れないで|别忘了|不要忘记|记得|잊지 말")
DAY_OR_HOUR_RE = re.compile(
    r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
    r"|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo"
    r"|segunda|terça|quarta|quinta|sexta|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|maandag|dinsdag"
    r"|woensdag|donderdag|vrijdag|zaterdag|zondag|måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag|poniedziałek"
    r"|wtorek|środa|czwartek|piątek|sobota|niedziela|понедельник|вторник|сред[ау]|четверг|пятниц[ау]|суббот[ау]"
    r"|воскресенье|pazartesi|salı|çarşamba|perşembe|cuma|cumartesi|pazar|tomorrow|morgen|demain|mañana|amanhã|domani"
    r"|imorgon|jutro|завтра|yarın)\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm|uhr|h)\b|\b\d{1,2}:\d{2}\b"
    r"|(?:周|星期|礼拜)[一二三四五六日天]|[月火水木金土日]曜|[월화수목금토일]요일|\d+\s?(?:点|時|시)|下午|上午|午後|午前|오후|오전|明天|明日|내일")
# A console's output pasted as a line: a stack frame, a column header, "Output: …", a link alone.
OUTPUT_RE = re.compile(
    r"^\s*at [\w$.<>\[\]]+ \(?[^()\s]+:\d+(?::\d+)?\)?\s*$"
    r"|^(?:[A-Z][A-Z_-]{1,}\s+){3,}"
    r"|(?i:^(?:last|command|console|terminal) output\s*[:：])")
LINK_ALONE_RE = re.compile(r"^<?https?://\S+>?\.?$")   # under a bold label it is a named link ("**Versioning policy:** https://…")

_ACTS = (
    (GREETING_RE, True, "a greeting"),
    (THANKS_RE, True, "thanks or an apology"),
    (INTERJECTION_RE, False, "an interjection"),
    (GUESS_RE, False, "a guess or an open question"),
    (UNSURE_RE, False, "a guess or an open question"),
    (WAITING_RE, False, "waiting on someone"),
    (PROGRESS_RE, False, "a progress figure or an ETA"),
    (ABOUT_NOTES_RE, False, "a note about the notes (a typo, a test entry)"),
    (NOTHING_NEW_RE, False, "a report that nothing changed"),
    (SESSION_RE, False, "a report of one session"),
    (HANDOFF_RE, False, "a hand-off"),
    (JUST_CHANGED_RE, False, "news that a state just changed"),
)


def _short(body: str) -> bool:
    return len(_WORD_RE.findall(body)) <= SHORT_WORDS and len(_CJK_RE.findall(body)) <= SHORT_CJK


def no_knowledge(text: str) -> str | None:
    """What the line does instead of stating knowledge ("a greeting", "waiting on someone", …), or None."""
    line = text.strip()
    lead = _LEAD_RE.match(line)[0]
    body = line[len(lead):].strip()
    if not body:
        return None
    for pattern, only_short, what in _ACTS:
        if pattern.search(body) and (not only_short or _short(body)):
            return what
    if REMINDER_RE.search(body) and DAY_OR_HOUR_RE.search(body):
        return "a reminder for one day"
    if ALL_CLEAR_RE.search(body) and not CONDITION_RE.search(body):
        return "an all-clear status"   # "If all green: proceed", "if no blockers exist → spawn" are steps
    if DATED_RE.search(body[:48]) and INCIDENT_RE.search(body) and len(_WORD_RE.findall(body)) <= INCIDENT_WORDS:
        return "an incident on one date"   # a longer one is the story of a lesson ("The cost … was higher …")
    if OUTPUT_RE.search(body) or (LINK_ALONE_RE.match(body) and "**" not in lead):
        return "a console's output"
    return None
