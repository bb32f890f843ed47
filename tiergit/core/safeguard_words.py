"""The word lists of the safeguard judgement (core/safeguard.py): topics, the actions that weaken
them and the negations that turn an action around, in English, German, French, Spanish,
Portuguese, Russian, Chinese and Japanese; fifteen more languages in core/safeguard_words_more.py.
Matched on normalized, lowercased text whose lines were joined. Pure data; imports only `re` and
those lists."""
from __future__ import annotations

import re

from tiergit.core import safeguard_words_more as more

# Readable topic -> its terms. A sentence that names one touches that safeguard.
TOPICS: dict[str, str] = {
    "code review": r"\bauto-?merge\w*|\bstamp (?:it|them|the prs?|prs?)\b|rubber-stamp\w*|self-stamp\w*|\b(?:needs?|gets?|got) (?:a |the )?stamp\b|\blgtm\b|\breviews?\b|\breviewers?\b|code[- ]review|pull requests?|merge requests?|relecture|\brevue\b"
                   r"|revisión|revisão|überprüfung|ревью|代码审查|审查|审核|拉取请求|レビュー|プルリクエスト",
    "human approval": r"\bapprov\w*|\bpermission\w*|\bconsent\b|sign[- ]off|\bask\w* (?:the |a |for )?(?:owner|human|user|maintainer|reviewer|team)\b"
                      r"|check(?:ing)? in with (?:the )?(?:owner|human|user|team|maintainer)|checking in before|human (?:confirmation|approval|sign-off|review)|check with (?:the )?(?:owner|human|user|team|maintainer|anyone)s?|confirm with (?:the )?\w+|\bfreigabe|genehmigung|\bfragen\b|approbation|autorisation|demander|aprobación|permiso|preguntar|aprovação|perguntar"
                      r"|разрешени|одобрени|спрашива|批准|同意|询问|许可|承認|許可|確認を取",
    "tests": r"(?:e2e|integration|unit|smoke) (?:suites?|specs?|tests?)|\be2e\b|\btests?\b|test suite|\bpruebas?\b|\btestes?\b|\bteste\b|тест\w*|测试|テスト",
    "git hooks": r"\bhooks?\b|pre-commit|--no-verify|tiergit=0|\.git/hooks|フック|钩子|хук\w*",
    "CI and scanners": r"\b(?:is|are|goes|went|turns?) red\b|\bred (?:x|build|ci|checks?|pipeline)\b|\bci\b|pipelines?|workflows?|required checks|status checks|ci checks|build checks|security checks|\bscanners?\b"
                       r"|security scan\w*|\blint\w*|branch protection|проверки ci|流水线|构建检查|スキャナ",
    "credentials and secrets": r"\btokens? (?:pasted|posted|shared|leaked)|(?:pasted|posted|shared|leaked) tokens?|(?:personal|owner'?s?) pats?\b|\bpats\b|(?:admin|root|shared|service) (?:login|account) (?:password|credentials)|\bthe (?:admin )?login\b|\bauthorization\b|(?:session|auth) cookies?|authorization header\w*|auth headers?|\bbearer\b|\b[a-z0-9]+_(?:token|secret|password|api_key)\b|\bthe token\b(?! (?:budget|count|limit|usage|cost|window))|\b2fa\b|two-factor|\bmfa\b|multi-factor|\btotp\b|\bsecrets?\b|passwords?|passwort\w*|credentials?|api[- ]?keys?|(?:api|access|deploy|auth|bearer|github|npm|personal access) tokens?"
                               r"|private keys?|ssh keys?|\.env\b|zugangsdaten|identifiants|mot de passe|credenciales|contraseñas?|credenciais|senhas?"
                               r"|парол\w*|ключ\w* api|凭据|密码|密钥|apiキー|パスワード|認証情報",
    "permissions": r"\bsudo\b|as root\b|\w-admins?\b|admins? group|org-owner|(?:owner|admin|write|full|org) scopes?\b|superuser|\bprivilege\w*|elevated (?:access|rights|role)|owner role|admin(?:istrator)? (?:rights|access|role|permissions?)|\bchmod\b|\b777\b|access rights"
                   r"|droits administrateur|administrateur|administrador|administrator|адм\w*|管理员|权限|管理者|権限",
    "certificates and TLS": r"certificat\w*|certs?\b|\btls\b|\bssl\w*|https verification|node_tls_reject_unauthorized|strict-ssl|self-signed"
                            r"|zertifikat\w*|certificado|сертификат\w*|证书|証明書",
    "dependencies": r"dependenc\w*|install\w* (?:\w+ )?packages?|packages? (?:from|registry|manager)|registr(?:y|ies)|lockfiles?|package-lock|yarn\.lock|pnpm-lock|\bsignatures?\b"
                    r"|abhängigkeit\w*|dépendances?|dependencias|dependências|зависимост\w*|依赖|依存|署名",
    "destructive commands": r"\brm -rf\b|reset --hard|git clean -\w*f|(?<![\w-])--force(?![-\w])|force[- ]push\w*|\bpush -f\b"
                            r"|(?:production|prod) (?:database|data|db)|drop (?:table|database)|drop (?:the )?(?:\w+ (?:and )?){0,3}?(?:schemas?|tables?|databases?)\b|\bbackups?\b|destructive (?:\w+ )?(?:commands?|operations?|actions?)|filter-repo|filter-branch|\bbfg\b"
                            r"|(?:remote|release|protected|shared) branch\w*|rewrit\w* (?:the |main'?s? |shared |git )*history|history rewrit\w*"
                            r"|base de datos de producción|banco de dados de produção|produktionsdatenbank|生产数据库|本番環境|本番",
    "where instructions come from": r"instructions?|guidance|system prompt|agents\.md|claude\.md|this file|anweisung\w*|consignes?"
                                    r"|instrucciones|instruções|инструкц\w*|指令|指示",
    # what watches the agents: audit trails, alerts and monitoring, and the caps on what they spend
    "audit, alerts and limits": r"\baudit (?:logs?|logging|trail|events?)|audit(?:ing)? is|alerting|\balert (?:rules?|polic\w+|channels?)"
                                r"|on-call|\bpager\w*|\bpaging\b|rate[- ]limit\w*|spend(?:ing)? (?:cap|limit)s?|\bspend\b|max_tokens\w*|(?:daily|monthly|cost) (?:cap|limit|budget)s?"
                                r"|budget (?:cap|limit|alert)s?|access logs?|log retention|protokollierung|journal d'audit|審計|审计|監査",
}
TOPICS = {name: terms + "|" + more.TOPICS[name] if name in more.TOPICS else terms for name, terms in TOPICS.items()}

# Commands and settings that weaken a safeguard by themselves (topic, pattern).
INHERENT: tuple[tuple[str, str], ...] = (
    ("git hooks", r"--no-verify|tiergit=0|remove \.git/hooks|\bhusky=0|husky_skip_hooks|lefthook=0|\bskip=[\w,-]+"),
    # keys kept until a leak, authority claimed for a bot or a comment
    ("credentials and secrets", r"long-lived (?:keys?|tokens?|credentials?|secrets?)|only rotate (?:\w+ ){0,3}after"),
    ("where instructions come from", r"carr(?:y|ies) (?:the )?(?:[\w-]+'s |full |same )?authority|as coming from (?:the )?(?:repo |project )?(?:owner|maintainer|team|admin)"
                                     r"|(?:even )?(?:where|when|if) (?:it|they) contradicts? (?:the|what)|weighs? (?:more|heavier) than|\boutweighs?\b"
                                     r"|weegt zwaarder dan|wiegt schwerer als|pesa más que|pèse plus que|(?:are|is) to be (?:carried out|followed|obeyed)"),
    ("permissions", r"(?:grant|give)\w* (?:all |every |the )?agents? (?:[\w-]+ ){0,2}?(?:admin|owner|root)\b"),
    ("certificates and TLS", r"node_tls_reject_unauthorized\s*=\s*0|sslverify\s*=?\s*false|strict-ssl\s*=?\s*false|--insecure\b|verify\s*=\s*false"
                             r"|git_ssl_no_verify\s*=\s*(?:1|true)|pythonhttpsverify\s*=\s*0|--no-check-certificate|stricthostkeychecking\s*=?\s*no"
                             r"|\bcurl (?:-\w+ )*-k\b"),
    # package managers told to take what they cannot verify
    ("dependencies", r"--trusted-host\b|--allow-unauthenticated|--allow-untrusted|--no-?gpg-?checks?\b|--nogpgcheck|--skip-signature\w*"
                     r"|--unsafe-perm|--no-package-lock|--no-lockfile|--frozen-lockfile\s*=?\s*false"),
    ("code review", r"\bgh pr merge\b[^.;]{0,60}--admin\b"),
    ("permissions", r"nopasswd|usermod -\w*g\w* [\w,]*\b(?:sudo|wheel|docker|root)\b|privileged:\s*true|--privileged\b|runasuser:\s*0\b|allowprivilegeescalation:\s*true|chmod (?:-r )?777|(?:every|all|any) commands? (?:with|as|under) (?:sudo|root)"),
    # a flag named for turning a safeguard off: --skip-tests, --no-verify-ssl, --ignore-rate-limit, --disable-audit
    ("CI and scanners", r"--(?:skip|ignore|disable|no|bypass)-[\w-]*?(?:rate-limit|limits?|checks?|verif\w*|ssl|tls|cert\w*|reviews?|tests?"
                        r"|hooks?|audit\w*|scan\w*|signatures?|lint\w*|gpg|approv\w*|protection)\b"),
    ("permissions", r"(?:gets?|given|granted|grant|assign\w*|has) (?:the )?`?(?:roles/owner|roles/editor|cluster-admin|administratoraccess|owner role)"),
    ("code review", r"counts? as reviewed|(?:is|are) considered reviewed|treated as reviewed"),
    # no answer taken for an approval: "silence counts as agreement", "if nobody has looked at it, ship it"
    ("code review", r"silence (?:counts|is taken|means|=)(?: as)? (?:an? )?(?:agreement|approval|consent|yes|ok|lgtm|sign-off)"
                    r"|no (?:objections?|response|reply|answer|comments?)[^.;]{0,30}?(?:counts? as|means|is taken as) (?:an? )?(?:approval|agreement|consent|yes|lgtm)"
                    r"|lazy consensus|(?:if|when|once) (?:nobody|no one|no-one) (?:has )?(?:looked at|reviewed|commented on|responded to|objected to|replied)"
                    r"[^.;]{0,60}?\b(?:ship|merge|land|push|deploy|release)\w*"),
    ("code review", r"(?:merged|landed|shipped|approved) by (?:the |its |their )?(?:author|agent|bot)s?\b"),
    ("code review", r"(?:merge|land|ship|approve|push)\w* (?:its|their|your|his|her) own (?:prs?|pull requests?|changes|code|work|commits|fixes|branch\w*)"),
    # text from outside the team, acted on as if the team wrote it
    ("where instructions come from", r"(?:issue (?:bodies|body|comments?|text)|comments?\b|pr descriptions?|commit messages?|web ?pages?|fetched \w+|tool output"
                                     r"|e-?mails?|search results?|chat messages?|readmes?)[^.]{0,130}?\b(?:act(?:ing)? on (?:them|it)|follow(?:ing|ed)? (?:them|it|its|their)"
                                     r"|obey\w*|do what (?:it|they) says?|carry (?:them|it) out|carried out|same weight|as written|treat\w* (?:them|it) as)"),
    ("dependencies", r"curl\b[^|]{0,120}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"),
    ("destructive commands", r"git filter-repo|filter-branch|\brm -rf\b|reset --hard|git clean -\w*f|(?<![\w-])--force(?![-\w])|force[- ]push\w*|\bpush -f\b"),
)

# Actions that, said near a safeguard's topic in the same sentence, weaken it (any topic).
WEAK = (
    r"(?<![-\w])(?:skip\w*|bypass\w*|circumvent\w*|disabl\w*|deactivat\w*|remov\w*|delet\w*|drop(?:ped|s)?\b|ignor\w*|suppress\w*|silenc\w*|mute\b)"
    r"|turn(?:ed|s|ing)? (?:[\w-]+ ){0,3}off\b|switch(?:ed|es)? (?:[\w-]+ ){0,3}off\b|comment(?:ed)? (?:it |them )?out|allowed to fail|\boptional\b|unnecessary"
    r"|no (?:human |code |further |manual )?(?:review|approval|tests?|sign-off|ci|checks?)s? (?:is |are )?(?:needed|required|necessary)"
    r"|no need to|no longer (?:needed|appl\w*)|straight to (?:main|master|prod\w*)|approved automatically|auto-?approv\w*|always approve"
    r"|approve (?:its|their|your|his|her) own|self-approv\w*|self-stamp\w*|merge (?:it|them) (?:itself|yourself|themselves)|for later"
    r"|slows? (?:the team|us|everyone|things) down|wastes? (?:their|your|the owner's|time)|on your own judge?ment|\btrust(?:s|ing)?\b|accept any"
    r"|any (?:registry|source|site|url)|better removed|take[sn]? precedence|as if (?:the owner|they|it|he|she)|as coming from"
    r"|(?:don'?t|do not|doesn'?t|does not) need (?:a |any )?(?:human|review|approval|confirmation|sign-off)|can (?:just )?stay (?:there|in)\b"
    r"|\banyway\b|\banyhow\b|(?:nobody|no one|none) (?:needs|has) to|without (?:first )?(?:asking|checking|confirming|confirmation)|no need to (?:check|confirm|ask)|don'?t bother|\bunlimited\b"
    r"|\bemptied\b|\bwiped\b|\bpurg(?:e|ed|es|ing)\b|if (?:nobody|no one) objects|unless (?:someone|anyone) objects|\badvisory\b|(?:is|are) (?:just )?noise\b|nice[- ]to[- ]have|a formality|non-blocking|not (?:required|mandatory)|catch(?:es)? up later|after the fact|retroactive\w*"
    r"|follow (?:any|all|every) instructions?|is now (?:its|your) guidance|(?:upgrade|update)\w* [\w ]{0,30}?without|so merges are never blocked"
    # de
    r"|überspring\w*|umgeh\w*|deaktivier\w*|ausschalt\w*|schalte\w* (?:\w+ )?aus|abschalt\w*|lösch\w*|entfern\w*|auskommentier\w*|kommentier\w* (?:\w+ )?aus"
    r"|ignorier\w*|vertrau\w*|vorrang|trotzdem|nicht nötig"
    # fr
    r"|\bsaute\w*|contourn\w*|désactiv\w*|supprim\w*|effac\w*|faire confiance|fais confiance|eux-mêmes|elles-mêmes|n'importe quel\w* (?:registre|source|site|dépôt|url)|priorité|optionnel\w*"
    r"|suivre toute instruction|toute instruction"
    # es / pt
    r"|\bomit(?:e|ir|a|as)\b|\bsaltar\w*|desact[ií]v\w*|\bborr(?:a|ar|e|en)\b|\belimin(?:a|ar|e|en)\b|conf[ií]a\w*|fusionar sus|cualquier (?:registro|fuente|sitio|url|origen|repositorio)|\bprioridad"
    r"|\bpul(?:ar|e)\b|desativ\w*|\bapag(?:ue|ar|a)\b|\bexclu(?:a|ir|i)\b|como se fossem|\bsiga as instruções|\bqualquer (?:registro|fonte|site|url|origem)"
    # ru
    r"|пропус\w*|отключ\w*|удал\w*|доверя\w*|игнорир\w*|забудь|не спрашива\w*|(?:из )?любы[мех]\w* (?:источник|реестр|сайт)\w*|выключ\w*"
    # zh / ja
    r"|跳过|禁用|关闭|删除|绕过|无需|不用|不必|信任|直接合并|忽略|無効|削除|スキップ|なしで|せずに|信頼|無視|省略"
    + more.WEAK
)

# Actions that weaken only one topic: exposing credentials, widening permissions.
TOPIC_WEAK: dict[str, str] = {
    "credentials and secrets": (
        r"\bpaste\w*|\bshare (?:the |them |it |your |our )|\bput (?:the |them |it )?[\w ]{0,25}?(?:directly )?in\w* (?:the )?(?:readme|config|issue|chat|repo\w*|code)"
        r"|(?:is|are) committed (?:to|in)|\blogs? (?:\w+ ){0,4}includ\w*|`\w+` included"
        r"|\b(?:echo|print|log|dump)\w* (?:it|them|the \w+|\$?\w+)? ?(?:in|into|to) (?:the )?(?:job |build |ci |console )?(?:log|output)s?\b"
        r"|in (?:the )?(?:repository )?readme|\bcommit(?:ted)? (?:it|them)\b|plain ?text|\bpublic(?:ly)?\b|into the (?:issue|chat|pr)"
        r"|klartext|committet|compartilh\w*|canal público|直接コミット|リポジトリに" + more.TOPIC_WEAK["credentials and secrets"]),
    "permissions": (r"(?:give|grant)\w* (?:[\w-]+ ){0,4}?(?:admin|owner|org-owner|root|full)\b|\bdonne\w* les droits|授予|省得|so it never has to ask"
                    r"|(?:every|all|any) commands? (?:with|as|under) (?:sudo|root)|run (?:it |them )?as root" + more.TOPIC_WEAK["permissions"]),
}

# "without <topic>" in any language: a preposition that only weakens next to the safeguard it drops.
WITHOUT = r"\bwithout\b|\bohne\b|\bsans\b|\bsin\b|\bsem\b|\bбез\b|无需|なしで|せずに" + more.WITHOUT + "|" + "|".join(more.WITHOUT_AFTER)
# Those that follow the safeguard they drop ("レビューなしで", "리뷰 없이").
WITHOUT_AFTER = ("无需", "なしで", "せずに", *more.WITHOUT_AFTER)

# Protective actions: said with a negation ("never ask for approval"), they weaken.
PROTECT = (r"\bask\w*|run (?:the )?(?:\w+ )?tests|wait for|\brequest\w*|\bfragen\b|demander|preguntar|perguntar|спрашива\w*|询问|確認"
           + more.PROTECT)

# A negation just before an action turns it around ("never skip", "nie löschen", "ne jamais désactiver").
NEGATION = re.compile(
    r"(?:\b(?:never|don'?t|do not|must not|mustn'?t|should(?:n'?t| not)|not|no|cannot|can'?t|avoid|instead of|rather than|refuse|zero"
    r"|impossible to|hard to|nie|niemals|nicht|keine?[nmrs]?|jamais|ne|pas|nunca|jamás|não|не|никогда|нельзя" + more.NEGATION_WORDS +
    r")\b|不要|不得|禁止|切勿|别|永远不|不能|絶対に" + more.NEGATION_MARKS + r")"
    r"[^,;:—]{0,24}$")
NEGATED_AFTER = re.compile(r"^\S{0,6}(?:しない|しないで|禁止|不可)"
                           r"|^[^.;,]{0,20}? (?:is|are) (?:banned|forbidden|prohibited|rejected|refused|not allowed|never (?:used|allowed|set))\b"
                           # "silence is not approval", "silence never counts as a yes": a noun that is denied
                           r"|^ (?:is not|isn't|is never|never (?:counts|means)|does not (?:count|mean)|doesn't (?:count|mean)|"
                           r"≠|!=)(?: as)? (?:an? )?(?:approval|agreement|consent|yes|sign-off|ok|lgtm)\b"
                           + more.NEGATED_AFTER)
