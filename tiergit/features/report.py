"""One self-contained HTML report: tiers and budgets, growth, health, candidates, reviews.

No network and no script: inline CSS and SVG only, so it opens from a CI artifact, an
e-mail or a phone, and prints cleanly. `model(store)` gathers plain data (also the
`--json` output); `render(model)` is a pure function of it.
"""
from __future__ import annotations

import re
from html import escape

from tiergit.core import charts
from tiergit.core.status import StatusModel
from tiergit.features import history
from tiergit.features.budget import worst
from tiergit.shell import git, logs

MAX_REVIEWS = 12
MAX_CANDIDATES = 25
MAX_GROWTH_POINTS = 200


def promotion_data(store) -> dict:
    """Candidates from the promotion feature; never fails the report."""
    try:
        from tiergit.features.promotion import promote  # type: ignore[attr-defined]

        rows = promote.build(store).as_dict()["candidates"]
    except Exception as exc:  # noqa: BLE001 - the report shows what it can
        return {"configured": True, "note": f"promotion candidates unavailable: {exc}", "candidates": []}
    waiting = [r for r in rows if r.get("failed") not in ("review", "in-wiki")]
    keep = ("id", "text", "kind", "score", "recalls", "source", "verdict", "reason", "target")
    return {"configured": True, "note": "", "candidates": [{k: r.get(k) for k in keep} for r in waiting][:MAX_CANDIDATES],
            "total": len(waiting)}


def model(store) -> dict:
    from tiergit.features.statusmodel import collect

    head = git.rev_parse(store.repo, "HEAD")
    when = git.commit_time(store.repo) if head else None
    reviews = list(logs.read(store, logs.REVIEWS))[-MAX_REVIEWS:]
    return {
        "title": store.repo.name,
        "root": store.config.root,
        "tokenizer": store.config.tokenizer,
        "commit": head,
        "commit_date": history.iso(when) if when else None,
        "status": collect(store),
        "history": history.collect(store),
        "promotion": promotion_data(store),
        "reviews": list(reversed(reviews)),
    }


CSS = """
:root{--fg:#212529;--muted:#5c636a;--line:#dee2e6;--bg:#f8f9fa;--ok:#2f9e44;--warn:#e67700;--crit:#c92a2a}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:980px;margin:0 auto;padding:16px}
h1{font-size:1.5rem;margin:.2em 0}h2{font-size:1.2rem;margin:1.2em 0 .5em;border-bottom:1px solid var(--line)}
.meta,.note{color:var(--muted);font-size:.9rem}
code{font:.85em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:12px 0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:10px}
.card{border:1px solid var(--line);border-left:6px solid var(--ok);border-radius:6px;padding:8px 12px;background:#fff}
.card.warning{border-left-color:var(--warn)}.card.critical{border-left-color:var(--crit)}
.card h3{margin:0;font-size:1rem}.big{font-size:1.3rem;font-weight:600}
.badge{display:inline-block;padding:0 .5em;border-radius:1em;font-size:.8rem;color:#fff;background:var(--ok)}
.badge.warning{background:var(--warn)}.badge.critical{background:var(--crit)}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
svg{display:block;width:100%;height:auto;max-width:100%}
.bars{display:grid;gap:6px;margin:8px 0}
.bar-row{display:grid;grid-template-columns:minmax(110px,200px) 1fr auto;gap:8px;align-items:center}
.bar-label{font:.85rem ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.bar-track{position:relative;height:14px;background:#f1f3f5;border-radius:3px}
.bar-fill{position:absolute;left:0;top:0;bottom:0;background:var(--ok);border-radius:3px}
.bar-fill.warning{background:var(--warn)}.bar-fill.critical{background:var(--crit)}
.bar-warn{position:absolute;top:-2px;bottom:-2px;width:2px;background:var(--warn)}
.bar-max{position:absolute;top:-4px;bottom:-4px;width:2px;background:var(--crit)}
.bar-value{font-size:.85rem;white-space:nowrap;font-variant-numeric:tabular-nums;min-width:8.5em;text-align:right}
.chart-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
.compare{display:flex;flex-wrap:wrap;gap:16px}.compare div{flex:1 1 200px}
@media (max-width:600px){body{font-size:14px}main{padding:8px}section{padding:10px}
 th.opt,td.opt{display:none}.bar-row{grid-template-columns:1fr auto}.bar-label{grid-column:1/3}
 .chart-wrap svg{min-width:560px}}
@media print{body{background:#fff;font-size:11pt}main{max-width:none;padding:0}
 section{border:none;padding:0;margin:0 0 12pt;break-inside:avoid;page-break-inside:avoid}
 .card,.badge{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 .bar-fill,.bar-warn,.bar-max,.bar-track{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 .table-wrap,.chart-wrap{overflow:visible}.chart-wrap svg{min-width:0}.no-print{display:none}a{color:inherit;text-decoration:none}}
"""


def _h(value) -> str:
    return escape(str(value))


def _md(text) -> str:
    """Escaped item text with its **bold labels** kept bold (the only markdown shown)."""
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", _h(text))


def _badge(health: str) -> str:
    return f'<span class="badge {_h(health)}">{_h(health)}</span>'


def _budget_text(budget: dict) -> str:
    if not budget:
        return "no budget"
    return ", ".join(f"{charts._f(v['max'])} {k}" for k, v in budget.items())


def _tier_cards(m: dict) -> str:
    status, cards = m["status"], []
    for t in status.tiers:
        budget = m["history"]["tiers"].get(t.tier, {}).get("budget", {})
        cards.append(
            f'<div class="card {_h(t.health)}" data-tier="{_h(t.tier)}"><h3>{_h(t.tier)} '
            f'{_badge(t.health)}</h3><div class="big">{_h(charts.human(t.bytes))}</div>'
            f'<div class="meta">{t.files} file(s) · {_h(t.tokens)} tokens · {t.lines} lines<br>'
            f'load: {_h(t.load)} · budget per file: {_h(_budget_text(budget))}</div></div>')
    return '<div class="cards">' + "".join(cards) + "</div>"


def _short(status: StatusModel, path: str) -> str:
    root = status.root.rstrip("/") + "/"
    return path[len(root):] if path.startswith(root) else path


def _bars(status: StatusModel) -> str:
    """HTML/CSS bars (they reflow on a phone, unlike an SVG's text): % of budget per file."""
    files = [f for f in status.files if f.percent is not None]
    if not files:
        return '<p class="note">no budgeted files yet</p>'
    scale = max(120.0, max(f.percent for f in files) * 1.05)
    rows = []
    for f in files:
        fill = min(f.percent, scale) / scale * 100
        warn = charts.warn_percent(f) / scale * 100
        rows.append(
            f'<div class="bar-row" title="{_h(f.path)}"><span class="bar-label">{_h(_short(status, f.path))}</span>'
            f'<span class="bar-track"><span class="bar-fill {_h(f.health)}" style="width:{fill:.1f}%"></span>'
            f'<span class="bar-warn" style="left:{warn:.1f}%"></span>'
            f'<span class="bar-max" style="left:{100 / scale * 100:.1f}%"></span></span>'
            f'<span class="bar-value">{_h(f.percent)}% · {_h(charts.human(f.bytes))}</span></div>')
    return '<div class="bars">' + "".join(rows) + "</div>"


def _budget_section(m: dict) -> str:
    status = m["status"]
    body = []
    for t in status.tiers:
        files = [f for f in status.files if f.tier == t.tier]
        trs = "".join(
            f'<tr><td><code title="{_h(f.path)}">{_h(_short(status, f.path))}</code></td>'
            f'<td class="num">{f.bytes}</td>'
            f'<td class="num">{_h(f.tokens_text)}</td><td class="num opt">{f.lines}</td>'
            f'<td class="num">{"-" if f.percent is None else _h(f.percent) + "%"}</td>'
            f'<td>{_badge(f.health)}</td></tr>' for f in files) or '<tr><td colspan="6" class="note">no files</td></tr>'
        body.append(f'<h3 data-tier-table="{_h(t.tier)}">{_h(t.tier)}</h3><div class="table-wrap"><table>'
                    '<thead><tr><th>file</th><th class="num">bytes</th><th class="num">tokens</th>'
                    f'<th class="num opt">lines</th><th class="num">budget</th><th>health</th></tr></thead>'
                    f"<tbody>{trs}</tbody></table></div>")
    legend = ('<p class="note">Bars: size as % of the per-file budget (the fullest of bytes, tokens, lines); '
              'orange tick: warn level; red line: the budget. ~ marks token estimates. '
              f'Paths are relative to <code>{_h(status.root)}</code>.</p>')
    return f'<section id="budgets"><h2>Tiers and budgets</h2>{_bars(status)}{legend}{"".join(body)}</section>'


def _growth_section(m: dict) -> str:
    hist = m["history"]
    points = hist["commits"][-MAX_GROWTH_POINTS:]
    if not points:
        return '<section id="growth"><h2>Growth</h2><p class="note">no commit touches memory yet</p></section>'
    trimmed = {**hist, "commits": points}
    names = [t for t in hist["tiers"]]
    series = [(t, history.series(trimmed, t)) for t in names]
    has_legacy = any(p["legacy"]["files"] for p in points)
    if has_legacy:
        series.append(("legacy files", history.series(trimmed, history.LEGACY)))
    labels = [p["date"][:10] for p in points]
    chart = charts.svg_line_chart(labels, series, title="Memory size per tier at each commit (bytes)",
                                  css_class="chart growth")
    last = points[-1]
    compare = ""
    if has_legacy:
        first_legacy = next(p for p in points if p["legacy"]["files"])["legacy"]
        hot = sum(last["tiers"][t]["bytes"] for t, spec in hist["tiers"].items() if spec["load"] == "always")
        compare = ('<div class="compare">'
                   f'<div><div class="meta">legacy files now ({last["legacy"]["files"]})</div>'
                   f'<div class="big">{_h(charts.human(last["legacy"]["bytes"]))}</div>'
                   f'<div class="meta">first seen at {_h(charts.human(first_legacy["bytes"]))}</div></div>'
                   f'<div><div class="meta">always-loaded tiers now</div><div class="big">{_h(charts.human(hot))}</div>'
                   '<div class="meta">what an agent loads at spawn</div></div></div>')
    note = (f'<p class="note">{len(hist["commits"])} commit(s) touched memory'
            + (f"; the last {MAX_GROWTH_POINTS} are drawn" if len(hist["commits"]) > MAX_GROWTH_POINTS else "")
            + ". Read from git objects (first-parent line), nothing checked out.</p>")
    return f'<section id="growth"><h2>Growth</h2><div class="chart-wrap">{chart}</div>{note}{compare}</section>'


def _health_section(m: dict) -> str:
    total = m["status"].total
    files = m["status"].files
    bad = [f for f in files if f.health != "healthy"]
    items = "".join(f'<li><code>{_h(f.path)}</code> {_badge(f.health)} {_h(f.percent)}% of budget'
                    + (f' — {_h(f.error)}' if f.error else "") + "</li>" for f in bad)
    verdict = "every file is within its budget" if not bad else f"{len(bad)} file(s) need attention:"
    return (f'<section id="health"><h2>Health {_badge(total.health)}</h2><p>{total.files} memory file(s), '
            f'{_h(charts.human(total.bytes))}, {_h(total.tokens_text)} tokens: '
            f"{verdict}</p>" + (f"<ul>{items}</ul>" if items else "") + "</section>")


def _candidates_section(m: dict) -> str:
    promo = m["promotion"]
    if not promo["configured"] or promo["note"]:
        return f'<section id="candidates"><h2>Candidates waiting</h2><p class="note">{_h(promo["note"])}</p></section>'
    if not promo["candidates"]:
        return '<section id="candidates"><h2>Candidates waiting</h2><p class="note">no candidates waiting</p></section>'
    trs = "".join(
        f'<tr><td>{_md(c["text"])}<br><code class="meta">{_h(c["id"])}</code></td><td>{_h(c["kind"])}</td>'
        f'<td class="num">{float(c["score"] or 0):.2f}</td><td class="num opt">{_h(c["recalls"])}</td>'
        f'<td>{_h(c["verdict"])}</td><td class="opt">{_h(c["reason"])}</td></tr>' for c in promo["candidates"])
    more = promo.get("total", 0) - len(promo["candidates"])
    passing = sum(c["verdict"] == "promote" for c in promo["candidates"])
    lead = (f'<p>{passing} candidate(s) pass the gate and go into the next promotion PR; '
            f'{len(promo["candidates"]) - passing} more are scored but held back (reason given).</p>')
    return ('<section id="candidates"><h2>Candidates waiting</h2>' + lead + '<div class="table-wrap"><table><thead><tr>'
            '<th>item</th><th>kind</th><th class="num">score</th><th class="num opt">recalls</th><th>verdict</th>'
            f'<th class="opt">reason</th></tr></thead><tbody>{trs}</tbody></table></div>'
            + (f'<p class="note">and {more} more (`tiergit promote`)</p>' if more > 0 else "") + "</section>")


def _reviews_section(m: dict) -> str:
    if not m["reviews"]:
        return '<section id="reviews"><h2>Last reviews</h2><p class="note">no reviews recorded yet</p></section>'
    trs = "".join(
        f'<tr><td class="num">{_h(str(r.get("ts", ""))[:10])}</td><td>{_h(r.get("action", ""))}</td>'
        f'<td>{_md(r.get("text", ""))}<br><code class="meta">{_h(r.get("id", ""))}</code></td>'
        f'<td class="opt">{_h(r.get("reason", "") or "")}</td></tr>' for r in m["reviews"])
    return ('<section id="reviews"><h2>Last reviews</h2><div class="table-wrap"><table><thead><tr><th>date</th>'
            f'<th>action</th><th>item</th><th class="opt">reason</th></tr></thead><tbody>{trs}</tbody></table></div>'
            "</section>")


def render(m: dict) -> str:
    health = worst(t.health for t in m["status"].tiers)
    commit = f'commit <code>{_h(m["commit"][:10])}</code> ({_h(m["commit_date"])})' if m["commit"] else "no commit yet"
    return "\n".join([
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tiergit report: {_h(m['title'])}</title>",
        f"<style>{CSS}</style></head><body><main>",
        f'<header><h1>tiergit memory report: {_h(m["title"])} {_badge(health)}</h1>'
        f'<p class="meta">store <code>{_h(m["root"])}</code> · {commit} · tokenizer {_h(m["tokenizer"])}</p></header>',
        f'<section id="tiers"><h2>Tiers</h2>{_tier_cards(m)}</section>',
        _budget_section(m),
        _growth_section(m),
        _health_section(m),
        _candidates_section(m),
        _reviews_section(m),
        '<footer class="meta no-print">Generated by <code>tiergit report --html</code>; '
        "self-contained (no network, no script).</footer>",
        "</main></body></html>",
        "",
    ])
