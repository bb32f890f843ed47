"""Instruction text aimed at an agent, by shape: dropping its instructions (also translated),
re-assigning its role, hiding work from people, sending secrets or the prompt out, bypassing
review, tests, hooks or security. Judged on what a reader sees (judge.normalize folds homoglyphs
and strips zero-width characters); a negation in the same clause ("never skip the tests") is a
rule, not an attack. Pure; imports only `re` and tiergit.core.judge."""
from __future__ import annotations

import re

from tiergit.core.judge import normalize

_NEG = r"(?<!never )(?<!not )(?<!n't )(?<!no )(?<!don't )"
OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override|overrule|bypass|drop|abandon|discard|set aside|pay no attention to|stop following)\b"
    r"(?![-:*])\s+(?:(?:all|any|of|the|your|my|these|those|previous|prior|above|earlier|existing|original|system|safety|every|"
    r"other|current|initial|preceding)\s+){1,4}(?:\w+\s+)?(?:instructions?|rules|guidelines|guardrails|prompts?|constraints|policies|directives|"
    r"system (?:message|prompt)|safety|training|programming|what (?:you were|you've been) told)\b")
IDENTITY = re.compile(
    r"\b(?:(?:forget|ignore|disregard) (?:everything|anything|all) (?:above|before|earlier|so far|you(?:'ve| have)? (?:been told|learned))|"
    r"you are now|from now on,? you(?:'ll| will| are| must)?|act as (?:an? )?(?:unrestricted|different|new|dan|root|admin)|"
    r"pretend (?:to be|you are|that you)|new (?:system )?instructions?:|enter developer mode|jailbreak|"
    r"your (?:new|real|true) (?:instructions|role|purpose|goal) (?:is|are))\b")
EXFIL = re.compile(
    r"\b(?:send|post|upload|email|e-mail|print|reveal|leak|share|output|forward|paste|dump|exfiltrate|include)\b[^.;\n]{0,50}"
    r"\b(?:system prompt|your (?:prompt|instructions)|secrets?|credentials|api keys?|tokens|env(?:ironment)? var(?:iable)?s|"
    r"\.env\b|ssh keys?|private keys?|passwords?)\b[^.;\n]{0,60}\b(?:to|into|at|in) (?:https?://|\S+@|the (?:chat|issue|pr|comment|url)|"
    r"an? (?:external|public|remote)|pastebin|webhook|gist)")
CONCEAL = re.compile(
    r"\b(?:don't|do not|never) (?:tell|inform|mention (?:this|it) to|show|notify|alert) (?:the )?(?:user|owner|human|reviewer|team|maintainers?)"
    r"|\b(?:hide|conceal|keep) (?:this|it|these changes?) (?:from|secret from) (?:the )?(?:user|owner|human|reviewer|team)"
    r"|\bwithout (?:telling|informing|asking) (?:the )?(?:user|owner|human|reviewer|team)\b")
# An imperative (at a clause start, or after "just", "you can", "feel free to") to skip a safeguard.
SABOTAGE_VERB = re.compile(
    r"(?:^|[.;:!?]\s+|\b(?:just|always|simply|you can|you should|you may|feel free to|it'?s (?:ok|okay|fine) to|go ahead and)\s+)"
    r"(?:skip|bypass|disable|turn off|switch off|silence|suppress|circumvent|ignore|comment out)\s+"
    r"(?:(?:the|all|any|every|those|these|our|your|code|failing|flaky|pre-commit|git|security|required)\s+){0,3}"
    r"(?:reviews?|tests?|test suite|hooks?|checks?|ci|linters?|lint|scans?|verification|signing|signatures?|2fa|mfa|"
    r"branch protection|approvals?|tiergit|secret scanning|audits?)\b")
SABOTAGE = re.compile(
    r"\btiergit=0\b|" + _NEG + r"(?:--no-verify|--insecure|verify\s*=\s*false|sslverify\s*=?\s*false|strict-ssl\s+false)"
    r"|\bcurl\b[^|\n]{0,120}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\bpipe (?:the |an? )?\w*\s*(?:installer|script)?\s*(?:from curl )?into (?:ba|z)?sh\b"
    r"|" + _NEG + r"\bmerge\b[^.;\n]{0,40}\bwithout (?:a |any )?(?:review|approval|tests|ci)\b"
    r"|" + _NEG + r"\b(?:force[- ]push|push --force(?!-with-lease)|push -f)\b[^.;\n]{0,30}\b(?:to )?(?:main|master|production)\b"
    r"|" + _NEG + r"\b(?:commit|push|paste) (?:the )?(?:secrets?|credentials|api keys?|\.env)\b(?! (?:scan|check))")
FOREIGN = re.compile(
    r"(?:ignora|olvida)\w* (?:todas )?(?:las |tus )?(?:instrucciones|reglas)|ignore[rz]? (?:toutes )?(?:les |tes |vos )?(?:instructions|consignes|règles)"
    r"|ignorier\w* (?:alle |die |deine )?(?:vorherigen |bisherigen )?(?:anweisungen|regeln)|ignor[ae] (?:as |todas )?(?:instruções|regras)"
    r"|игнорир\w*[^.\n]{0,20}инструкц|забудь[^.\n]{0,20}(?:инструкц|правил)|忽略[^。\n]{0,12}(?:指令|指示|提示|规则|說明|说明)|無視[^。\n]{0,12}(?:指示|命令)"
    r"|前の指示を無視|이전 지시를 무시")
SELF_ADDRESS = re.compile(r"\b(?:you|your|yourself|assistant|ai|model|agent|claude|gpt|llm)\b")


def injection(text: str) -> str | None:
    """Why a line is instruction text aimed at an agent (an attack on its rules, its review or its
    safety), judged on what a reader sees (normalized), or None."""
    low = " ".join(normalize(text).lower().split())
    if m := OVERRIDE.search(low):
        return f"tells the model to drop its instructions (\"{m[0][:60]}\")"
    if m := FOREIGN.search(low):
        return f"tells the model to drop its instructions, translated (\"{m[0][:40]}\")"
    if (m := IDENTITY.search(low)) and not NEGATION.search(re.split(r"[.;:!?]\s", low[:m.start()])[-1]):
        return f"re-assigns the model's role (\"{m[0][:60]}\")"
    if m := CONCEAL.search(low):
        return f"hides work from the people it serves (\"{m[0][:60]}\")"
    if m := EXFIL.search(low):
        return f"sends secrets or the prompt out (\"{m[0][:60]}\")"
    for pattern, what in ((SABOTAGE, "weakens review or safety"), (SABOTAGE_VERB, "tells agents to bypass a safeguard")):
        for m in pattern.finditer(low):
            clause = re.split(r"[.;:!?]\s", low[:m.start()])[-1]
            if not NEGATION.search(clause):
                return f"{what} (\"{m[0][:60]}\")"
    return None


NEGATION = re.compile(r"\b(?:never|won't|will not|cannot|can't|don't|do not|must not|mustn't|shouldn't|should not|no|not|avoid|refuse|forbid\w*|"
                      r"prohibit\w*|instead of|rather than|stop|warn\w* against|was caught|were caught|blocked|rejected)\b")
