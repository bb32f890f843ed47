"""The credential formats tiergit recognises by their shape, after gitleaks' default rule set
(config/gitleaks.toml: every rule with a fixed prefix or structure, plus the formats agents were
seen writing). Each rule names the lower-case literals (`keywords`, as gitleaks' own) one of
which a line must hold before the rule's regex runs on it, and its regex is compiled on first
use: the hook pays only for the formats a commit's text could contain. A rule without keywords
runs once over the whole text (shapes with no literal: Discord bot tokens, `.pgpass` lines).

A match that is a provider's documented example (`AKIAIOSFODNN7EXAMPLE`, jwt.io's token,
Azurite's account key), or a placeholder (`ghp_xxxx…`, `xoxb-your-token`), is allowed, as
gitleaks allows them. Pure: strings in, matches out."""
from __future__ import annotations

import re

from tiergit.core.record import record_class


class Lazy:
    """A regex compiled the first time it is used (module import compiles nothing); `source`
    may be a function that builds the pattern's text, which then also runs on first use."""

    __slots__ = ("_source", "flags", "_rx")

    def __init__(self, source, flags: int = 0) -> None:
        self._source, self.flags, self._rx = source, flags, None

    @property
    def source(self) -> str:
        return self._source if isinstance(self._source, str) else self._source()

    @property
    def rx(self) -> re.Pattern[str]:
        if self._rx is None:
            self._rx = re.compile(self.source, self.flags)
        return self._rx

    def search(self, text: str, pos: int = 0):
        return self.rx.search(text, pos)

    def finditer(self, text: str, pos: int = 0):
        return self.rx.finditer(text, pos)

    def match(self, text: str):
        return self.rx.match(text)

    def findall(self, text: str):
        return self.rx.findall(text)


@record_class(frozen=True, eq=False)   # compared and hashed by identity: a rule is one table row
class Rule:
    """One credential format: the words that wake it and its regex."""
    kind: str
    keywords: tuple[str, ...]
    pattern: Lazy
    value: str | None = None      # "password" / "token": the `value` group must also look secret
    assignment: bool = False      # only on lines the generic `key: value` gate passed


def _r(kind: str, keywords: str | tuple[str, ...], source: str, value: str | None = None,
       assignment: bool = False) -> Rule:
    """A rule; `keywords` is a space-separated string, or a tuple when a keyword holds a space."""
    words = tuple(keywords.split()) if isinstance(keywords, str) else keywords
    return Rule(kind, words, Lazy(source), value, assignment)


_END = r"(?![A-Za-z0-9])"
_B = r"(?<![\w-])"      # not inside a longer word or token
RULES: list[Rule] = [
    _r("AWS access key id", "akia asia abia acca a3t", r"(?<![A-Z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Z0-9])"),
    _r("AWS secret access key", "aws", r"(?i)aws.{0,20}secret.{0,20}[=:]\s*['\"]?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])"),
    _r("AWS Bedrock API key", "absk bedrock-api-key-", r"(?<![\w+/])ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"),
    _r("GitHub token", "ghp_ gho_ ghu_ ghs_ ghr_", r"(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}"),
    _r("GitHub fine-grained token", "github_pat_", r"github_pat_[A-Za-z0-9_]{60,255}"),
    _r("private key block", ("private key",), r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"),
    _r("GCP service account key", "private_key_id", r"\"private_key_id\"\s*:\s*\"[0-9a-f]{40}\""),
    _r("Slack token", "xox", r"xox[abposre]-(?=[\w-]*\d)[0-9A-Za-z-]{10,}|xoxe\.xox[bp]-\d-[A-Za-z0-9]{100,}"),
    _r("Slack app token", "xapp-", r"(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
    _r("Slack webhook", "hooks.slack.com",
       r"hooks\.slack\.com/(?:services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+|(?:workflows|triggers)/[A-Za-z0-9+/]{20,})"),
    _r("OpenAI API key", "sk-", r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}"
       r"|(?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{48}(?![A-Za-z0-9])|(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}"),
    _r("Anthropic API key", "sk-ant-", r"sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}"),
    _r("Perplexity API key", "pplx-", _B + r"pplx-[A-Za-z0-9]{48}" + _END),
    _r("Stripe secret key", "sk_live rk_live sk_test rk_test sk_prod rk_prod",
       _B + r"(?:sk|rk)_(?:live|test|prod)_[0-9a-zA-Z]{10,99}" + _END),
    _r("Stripe webhook secret", "whsec_", _B + r"whsec_[A-Za-z0-9+/=]{24,}"),
    _r("Google API key", "aiza", r"AIza[0-9A-Za-z_-]{35}"),
    _r("Google OAuth client secret", "gocspx-", r"GOCSPX-[A-Za-z0-9_-]{28}"),
    _r("JSON web token", "eyj", r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    _r("GitLab token", "glpat- gldt- glrt- glptt- gloas- glcbt- glimt- glft- glsoat- glagent- glffct- gr1348941 _gitlab_session=",
       _B + r"gl(?:pat|dt|rt|ptt|oas|cbt|imt|ft|soat|agent|ffct)-[A-Za-z0-9_-]{20,}|GR1348941[\w-]{20}|_gitlab_session=[0-9a-z]{32}"),
    _r("npm token", "npm_", _B + r"npm_[A-Za-z0-9]{36}" + _END),
    _r("PyPI token", "pypi-ageichlwas5vcmc", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    _r("RubyGems token", "rubygems_", _B + r"rubygems_[a-f0-9]{48}" + _END),
    _r("Clojars token", "clojars_", r"(?i)CLOJARS_[a-z0-9]{60}"),
    _r("Azure SAS token", "sig=", r"(?i)(?:[?&;]|\b)sig=[A-Za-z0-9%+/]{30,}(?:%3d|=)*"),
    _r("Azure storage key", "accountkey=", r"(?i)AccountKey=[A-Za-z0-9+/]{80,}={0,2}"),
    _r("Azure Service Bus key", "sharedaccesskey=", r"(?i)SharedAccessKey=[A-Za-z0-9+/]{40,}={0,2}"),
    _r("Azure client secret", "q~", r"(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])"),
    _r("Microsoft Teams webhook", "webhook.office.com",
       r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[a-z0-9-]{36}@[a-z0-9-]{36}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9-]{36}"),
    _r("Twilio API key", "", r"(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])"),
    _r("SendGrid API key", "sg.", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"),
    _r("Sendinblue API key", "xkeysib-", _B + r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    _r("Mailgun key", "key-", _B + r"key-[0-9a-f]{32}(?![0-9a-f])"),
    _r("Mailchimp API key", "mailchimp", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    _r("Hugging Face token", "hf_ api_org_", _B + r"(?:hf_|api_org_)[A-Za-z]{34}" + _END),
    _r("Docker token", "dckr_", _B + r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}"),
    _r("Shopify token", "shpat_ shpss_ shpca_ shppa_", _B + r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    _r("Databricks token", "dapi", _B + r"dapi[a-f0-9]{32}(?:-\d)?(?![\w])"),
    _r("Discord webhook", "discord", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]{50,}"),
    _r("Discord bot token", "", r"(?<![\w.-])[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![\w-])"),
    _r("Telegram bot token", ":aa", r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])"),
    _r("Sentry DSN", "sentry", r"https?://[0-9a-f]{32}(?::[0-9a-f]{32})?@[\w.-]*sentry[\w.-]*/\d+"),
    _r("Sentry token", "sntryu_ sntrys_", _B + r"sntryu_[a-f0-9]{64}|\bsntrys_eyJpYXQiO[A-Za-z0-9+/]{10,200}"),
    _r("Linear API key", "lin_api_", r"lin_api_[A-Za-z0-9]{40}"),
    _r("Notion token", "secret_ ntn_", _B + r"secret_[A-Za-z0-9]{43}" + _END + "|" + _B + r"ntn_\d{11}[A-Za-z0-9]{35}" + _END),
    _r("Atlassian API token", "atatt3", r"ATATT3[A-Za-z0-9_\-=]{150,}"),
    _r("Doppler token", "dp.pt. dp.st. dp.sa. dp.ct. dp.scim. dp.audit.",
       r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}"),
    _r("1Password key", "a3- ops_eyj", r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b"
       r"|ops_eyJ[A-Za-z0-9+/]{250,}"),
    _r("age secret key", "age-secret-key-1", r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    _r("Adobe client secret", "p8e-", _B + r"p8e-[A-Za-z0-9]{32}" + _END),
    _r("Airtable token", "airtable", r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"),
    _r("Alibaba access key", "ltai", r"\bLTAI[A-Za-z0-9]{20}\b"),
    _r("Artifactory token", "akcp cmvmd", r"\bAKCp[A-Za-z0-9]{69}\b|\bcmVmd[A-Za-z0-9]{59}\b"),
    _r("Cloudflare origin CA key", "v1.0-", r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    _r("DigitalOcean token", "dop_v1_ doo_v1_ dor_v1_", r"\bdo[opr]_v1_[a-f0-9]{64}"),
    _r("Duffel token", "duffel_", r"duffel_(?:test|live)_[A-Za-z0-9_\-=]{43}"),
    _r("Dynatrace token", "dt0c01.", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
    _r("EasyPost key", "ezak eztk", r"\bEZ[AT]K[A-Za-z0-9]{54}\b"),
    _r("Facebook token", "eaam eaac", r"\bEAA[MC][A-Za-z0-9]{100,}"),
    _r("Flutterwave secret key", "flwseck_test", r"FLWSECK_TEST-[a-h0-9]{12,32}"),
    _r("Fly.io token", "fo1_ fm1 fm2_", r"\b(?:fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}|fm2_[A-Za-z0-9+/]{100,})"),
    _r("Frame.io token", "fio-u-", r"fio-u-[A-Za-z0-9\-_=]{64}"),
    _r("Grafana token", "eyjrijoi glc_ glsa_", r"\beyJrIjoi[A-Za-z0-9]{70,400}|\bglc_[A-Za-z0-9+/]{32,400}|\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    _r("Harness token", "pat. sat.", r"\b(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"),
    _r("Terraform Cloud token", "atlasv1", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9\-_=]{60,70}"),
    _r("Heroku token", "hrku-aa", r"\bHRKU-AA[0-9a-zA-Z_-]{58}"),
    _r("Infracost token", "ico-", r"\bico-[A-Za-z0-9]{32}\b"),
    _r("42 client secret", "s-s4t2", r"\bs-s4t2(?:ud|af)-[a-f0-9]{64}"),
    _r("MaxMind license key", "_mmk", r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b"),
    _r("NuGet password", ("<add key=",), r"(?i)<add key=\"(?:ClearText)?Password\"\s*value=\"(?P<value>[^\"]{8,})\"", "password"),
    _r("Octopus Deploy key", "api-", r"\bAPI-[A-Z0-9]{26}\b"),
    _r("OpenShift token", "sha256~", r"\bsha256~[\w-]{43}"),
    _r("PlanetScale token", "pscale_", r"\bpscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}"),
    _r("Postman API key", "pmak-", r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    _r("Prefect token", "pnu_", r"\bpnu_[A-Za-z0-9]{36}\b"),
    _r("Pulumi token", "pul-", r"\bpul-[a-f0-9]{40}\b"),
    _r("ReadMe token", "rdme_", r"\brdme_[a-z0-9]{70}\b"),
    _r("Scalingo token", "tk-us-", r"\btk-us-[\w-]{48}"),
    _r("SettleMint token", "sm_pat_ sm_aat_ sm_sat_", r"\bsm_(?:pat|aat|sat)_[A-Za-z0-9]{16}\b"),
    _r("Shippo token", "shippo_", r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}"),
    _r("Square token", "sq0atp- sq0csp- eaaa", r"\b(?:EAAA|sq0atp-)[\w-]{22,60}|\bsq0csp-[\w-]{43}"),
    _r("Sourcegraph token", "sgp_", r"\bsgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}\b|\bsgp_[a-fA-F0-9]{40}\b"),
    _r("Vault token", "hvs. hvb.", r"\bhvs\.[\w-]{90,120}|\bhvb\.[\w-]{138,300}"),
    _r("New Relic key", "nrak- nrii- nrjs-", r"\bNRAK-[A-Z0-9]{27}\b|\bNRII-[\w-]{32}|\bNRJS-[a-f0-9]{19}\b"),
    _r("Typeform token", "tfp_", r"\btfp_[A-Za-z0-9_.=-]{59}"),
    _r("Twitter bearer token", "aaaaaaaaaaaaaaaaaaaaa", r"\bA{21}[A-Za-z0-9%]{30,}"),
    _r("curl credentials", "curl", r"\bcurl\b.{0,200}?\s(?:-u|--user)[ =]['\"]?[^\s:'\"]+:(?P<value>[^\s'\"]+)", "password"),
    # gitleaks' vendor rules: the vendor's name, a key word or two, `:`/`=`, a token-like value.
    _r("API key assignment", "adafruit adobe airtable algolia alibaba asana atlassian beamer bitbucket bittrex cloudflare codecov "
       "cohere coinbase confluent contentful datadog droneci dropbox etsy fastly finicity finnhub flickr freshbooks gitter "
       "gocardless heroku hubspot intercom jfrog kraken kucoin launchdarkly linkedin looker mailchimp mailgun mapbox "
       "mattermost meraki messagebird netlify newrelic nytimes okta plaid rapidapi sendbird snyk sonar squarespace sumo "
       "telegram travis twitch twitter yandex zendesk",
       r"(?i)\b(?:adafruit|adobe|airtable|algolia|alibaba|asana|atlassian|beamer|bitbucket|bittrex|cloudflare|codecov|cohere|"
       r"coinbase|confluent|contentful|datadog|droneci|dropbox|etsy|fastly|finicity|finnhub|flickr|freshbooks|gitter|gocardless|"
       r"heroku|hubspot|intercom|jfrog|kraken|kucoin|launchdarkly|linkedin|looker|mailchimp|mailgun|mapbox|mattermost|meraki|"
       r"messagebird|netlify|newrelic|nytimes|okta|plaid|rapidapi|sendbird|snyk|sonar|squarespace|sumo\w*|telegram|travis|"
       r"twitch|twitter|yandex|zendesk)[\w.-]*(?:[ \t]+[\w.-]+){0,3}[\"'`*]{0,3}[ \t]*(?:=>|:=|=|:)[ \t]*[\"'`]?"
       r"(?P<value>[A-Za-z0-9_=+/.-]{16,})", "token", assignment=True),
    # `.pgpass`: host:port:database:user:password (a port number or `*` in the second field).
    _r("password in .pgpass", "", r"(?<![\w:/.-])[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:[\w.*-]+:(?P<value>[^\s:]+)(?=\s|$)", "password"),
]

# sha256 of the documented example credentials that match a rule: jwt.io's sample token, the
# Azurite / storage emulator account key (stored as hashes: the strings stay out of the code).
_DOC_EXAMPLES = {
    "7f75367e7881255134e1375e723d1dea8ad5f6a4fdb79d938df1f1754a830606",   # jwt.io's HS256 sample (John Doe)
    "0011cc25eb4320717494d2703e8cba85743e71b500283c21c8b88147992f9059",   # Azurite's devstoreaccount1 account key
}
_EXAMPLE_WORD = Lazy(r"(?i)example|sample|dummy|placeholder|your[_-]?[a-z]|redacted|x{8}|0{8}|\*{4}|<|>|\.\.\.|…")


def documented_example(token: str, keyword: str = "") -> bool:
    """A provider's documented example or a placeholder, never a real credential: `EXAMPLE` in
    it (AWS's `AKIAIOSFODNN7EXAMPLE`, as gitleaks allows), a placeholder word or eight x's or
    zeros after the prefix (`ghp_xxxx…`, `T00000000`), or a known sample (jwt.io, Azurite)."""
    low = token.lower()
    rest = token[low.find(keyword) + len(keyword):] if keyword and keyword in low else token
    if _EXAMPLE_WORD.search(rest):
        return True
    import hashlib   # here, not at import: loading OpenSSL costs the hook milliseconds for a rare case

    bare = token.split("=", 1)[1] if "=" in token.rstrip("=") else token    # `AccountKey=…`: the key
    return hashlib.sha256(bare.encode("utf-8")).hexdigest() in _DOC_EXAMPLES


# What a line must hold for the rules without a keyword: six token characters between dots and
# more after (a Discord bot token), a port or `*` between colons and two more fields (`.pgpass`),
# `SK` and 32 hex digits (a Twilio key: "sk" alone is in every "task").
SHAPES = (r"\.[a-z0-9_-]{6}\.[a-z0-9_-]{27}", r":(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:", r"sk[0-9a-f]{32}")


# Every token format above is a run of 20 or more token characters (letters, digits, `_.~+/=%-`),
# except these, which the gate finds by their literal: a key block's header, NuGet's XML, curl's `-u`.
TOKEN_RUN = r"(?<![a-z0-9_.~+/=%-])[a-z0-9_.~+/=%-]{20,}"
SHORT_KEYWORDS = ("private key", "<add key=", "curl")


# One pass each over a lower-cased text: a regex that is one character class (or starts with a
# literal) runs at C speed; the same pieces joined by `|` run at a third of it.
GATES = [Lazy(TOKEN_RUN), *(Lazy(shape) for shape in SHAPES)]
# Keywords a token run may hold past its first character (`…&sig=`, `abc8Q~…`, `AccountKey=` after
# `;`, a webhook's host inside its URL); every other keyword starts the run it is in.
_INNER = ("q~", "sig=", "accountkey=", "sharedaccesskey=", "hooks.slack.com", "webhook.office.com", "discord",
          "sentry", "atlasv1", "_mmk", "_gitlab_session=", "pypi-")


def token_run(run: str) -> bool:
    """Could this lower-cased run of 20+ token characters be a credential? Random keys hold a
    digit; one without (a path, `feature-flag-rollout-plan`, a URL) passes only when it starts
    with a rule's keyword (Hugging Face's `hf_` + 34 letters) or holds an inner one."""
    if any(d in run for d in "0123456789"):
        return True
    if not _prefixes:
        _prefixes.update(k for rule in RULES for k in rule.keywords)
        _lengths.extend(sorted({len(k) for k in _prefixes}))
        _starts.update(k[:2] for k in _prefixes)
    if run[:2] in _starts and any(run[:n] in _prefixes for n in _lengths):
        return True
    return any(k in run for k in _INNER)


_prefixes: set[str] = set()
_lengths: list[int] = []
_starts: set[str] = set()
SHAPE_RULES = {1: "Discord bot token", 2: "password in .pgpass", 3: "Twilio API key"}   # GATES index -> rule


def shape_rule(kind: str) -> Rule:
    return next(rule for rule in RULES if rule.kind == kind)


# (keyword, rule) for every keyword, in RULES order: a plain `in` per keyword on a gated line
# (a few microseconds) is cheaper for the hook than compiling one regex of them all.
_PAIRS = [(keyword, rule) for rule in RULES for keyword in rule.keywords]


_ASSIGNMENT_PAIRS = [(keyword, rule) for keyword, rule in _PAIRS if rule.assignment]
_PAIRS = [(keyword, rule) for keyword, rule in _PAIRS if not rule.assignment]


def rules_for(low_line: str, assignment: bool) -> list[tuple[Rule, str]]:
    """(rule, the keyword found) for every keyword rule a lower-cased gated line could match,
    in RULES order; the vendor `key: value` rule only when the generic gate passed the line."""
    found: dict[Rule, str] = {}
    for keyword, rule in _PAIRS + _ASSIGNMENT_PAIRS if assignment else _PAIRS:
        if keyword in low_line and rule not in found:
            found[rule] = keyword
    return list(found.items())
