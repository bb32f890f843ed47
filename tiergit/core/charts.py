"""Charts where users already look: Mermaid for PR bodies and job summaries, unicode
sparklines for the terminal, inline SVG for the HTML report and the README.

All pure functions of their inputs (the charts that measure a store live in
`features/statusmodel.py`); coordinates are rounded so the same data gives the same bytes.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape

from tiergit.core.status import FileStatus, StatusModel

SPARK = "▁▂▃▄▅▆▇█"
PALETTE = ("#d9480f", "#1971c2", "#2f9e44", "#7048e8", "#c2255c", "#0c8599", "#e67700")
MAX_MERMAID_FILES = 12


def sparkline(values: list[float]) -> str:
    """One character per value, scaled from the series' min to its max ('' for no values)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    if high == low:
        return SPARK[0 if high == 0 else 3] * len(values)
    span = high - low
    return "".join(SPARK[min(7, int((v - low) / span * 7 + 0.5))] for v in values)


# --- Mermaid -----------------------------------------------------------------------------

def _mermaid_label(text: str) -> str:
    return '"' + re.sub(r"[^A-Za-z0-9/._ ()%-]", "_", text)[:40] + '"'


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def mermaid_budget_chart(rows: list[dict]) -> str:
    """rows: {"label", "percent" (of max), "warn_percent"} -> a ```mermaid xychart-beta block:
    bars = size as % of budget, lines = the warn level and the budget (100 %)."""
    if not rows:
        rows = [{"label": "no memory files", "percent": 0.0, "warn_percent": 80.0}]
    top = max(120.0, max(r["percent"] for r in rows) * 1.1)
    top = math.ceil(top / 10) * 10
    labels = ", ".join(_mermaid_label(r["label"]) for r in rows)
    lines = [
        "```mermaid",
        "xychart-beta",
        '    title "Memory size as % of budget (bars); warn and max budget (lines)"',
        f"    x-axis [{labels}]",
        f'    y-axis "% of budget" 0 --> {top}',
        f"    bar [{', '.join(_num(round(r['percent'], 1)) for r in rows)}]",
        f"    line [{', '.join(_num(round(r['warn_percent'], 1)) for r in rows)}]",
        f"    line [{', '.join('100' for _ in rows)}]",
        "```",
    ]
    return "\n".join(lines) + "\n"


def budget_rows(status_model: StatusModel) -> list[dict]:
    """One row per budgeted file (or per tier, the fullest file, when there are many files)."""
    root = status_model.root.rstrip("/") + "/"
    files = [f for f in status_model.files if f.percent is not None and f.budget]
    rows = []
    for f in files:
        label = f.path[len(root):] if f.path.startswith(root) else f.path
        rows.append({"label": label.removesuffix(".md"), "tier": f.tier, "percent": f.percent,
                     "warn_percent": warn_percent(f)})
    if len(rows) <= MAX_MERMAID_FILES:
        return rows
    per_tier: dict[str, list[dict]] = {}
    for row in rows:
        per_tier.setdefault(row["tier"], []).append(row)
    return [{**max(group, key=lambda r: r["percent"]),
             "label": f"{tier} (fullest of {len(group)})"} for tier, group in per_tier.items()]


def warn_percent(row: FileStatus) -> float:
    """The warn level of the metric closest to its budget, as % of that budget's max."""
    best, best_pct = 80.0, -1.0
    for metric, limit in (row.budget or {}).items():
        pct = 100.0 * getattr(row, metric, 0) / limit["max"] if limit["max"] else 0.0
        if pct > best_pct:
            best_pct, best = pct, 100.0 * limit["warn"] / limit["max"]
    return best


# --- SVG ---------------------------------------------------------------------------------

def _legend_layout(names: list[str], left: int, right: int) -> list[tuple[int, int, int]]:
    """(x, width, row) per legend entry, wrapping to a new row when the line is full.
    Widths are estimated (~6.5 px a character at 12 px): no font metrics without a browser."""
    out, x, row = [], left, 0
    for name in names:
        w = 26 + int(6.5 * len(name))
        if x > left and x + w > right:
            x, row = left, row + 1
        out.append((x, w, row))
        x += w
    return out


def nice_ceiling(value: float) -> tuple[float, float]:
    """A round axis top >= value and its tick step (1, 2 or 5 x 10^n, 4-6 ticks)."""
    if value <= 0:
        return 1.0, 0.25
    raw = value / 5
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return step * math.ceil(value / step - 1e-9), step


def human(value: float, unit: str = "bytes") -> str:
    if unit == "bytes":
        if value >= 1024 * 1024:
            return f"{value / 1024 / 1024:.1f} MB"
        if value >= 1024:
            return f"{value / 1024:.1f} KB".replace(".0 KB", " KB")
        return f"{int(value)} B"
    if value >= 1000:
        return _f(value / 1000) + "k"
    return f"{value:g}"


def _exact(value: float, unit: str) -> str:
    return human(value, unit) if unit == "bytes" else f"{int(value):,} {unit}"


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class _Frame:
    """The plot area of a line chart and its two scales."""
    left: int
    top: int
    pw: int
    ph: int
    n: int          # points on the x axis
    ymax: float

    def x(self, i: int) -> float:
        return self.left + (self.pw * i / (self.n - 1) if self.n > 1 else self.pw / 2)

    def y(self, v: float) -> float:
        return self.top + self.ph - self.ph * v / self.ymax


def svg_line_chart(x_labels: list[str], series: list[tuple[str, list[float]]], *, title: str,
                   unit: str = "bytes", refs: list[tuple[str, float]] | None = None,
                   width: int = 720, height: int = 320, css_class: str = "chart", x_title: str = "") -> str:
    """Lines over a shared x axis, dashed reference lines (budgets), a legend. Scales with its box."""
    refs = refs or []
    left, right, bottom = 64, 16, 40 + (16 if x_title else 0)
    legend = _legend_layout([name for name, _ in series], left, width - right)
    top = 44 + 18 * (max((row for _, _, row in legend), default=0) + 1)
    peak = max([v for _, vals in series for v in vals] + [v for _, v in refs] + [0])
    # Bytes get round KB ticks (1024-based), everything else round decimal ticks.
    kb = 1024 if unit == "bytes" and peak >= 1024 else 1
    ymax, step = nice_ceiling(peak * 1.05 / kb if peak else 1)
    frame = _Frame(left, top, width - left - right, height - top - bottom,
                   max(1, max((len(v) for _, v in series), default=1)), ymax * kb)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="{escape(css_class)}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{escape(title)}" font-family="system-ui, sans-serif" font-size="12">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
           f'<text x="{left}" y="18" font-size="14" font-weight="600" fill="#212529">{escape(title)}</text>']
    out += _axes(frame, step * kb, unit, x_labels, x_title, width - right, height, bottom)
    out += _ref_lines(frame, refs, unit, width - right)
    out += _series_lines(frame, series, unit, legend)
    out.append("</svg>")
    return "\n".join(out)


def _axes(frame: _Frame, step: float, unit: str, x_labels: list[str], x_title: str, x_end: int, height: int,
          bottom: int) -> list[str]:
    """Horizontal grid lines with their values, thinned x labels, the x axis and its title."""
    out = []
    for k in range(int(round(frame.ymax / step)) + 1):
        v = step * k
        out.append(f'<line x1="{frame.left}" x2="{x_end}" y1="{_f(frame.y(v))}" y2="{_f(frame.y(v))}" stroke="#e9ecef"/>')
        out.append(f'<text x="{frame.left - 6}" y="{_f(frame.y(v) + 4)}" text-anchor="end" fill="#495057">'
                   f"{escape(human(v, unit))}</text>")
    label_every = max(1, math.ceil(len(x_labels) / 8))
    drawn = None
    for i, label in enumerate(x_labels):
        last = i == len(x_labels) - 1 and i % label_every >= label_every / 2
        if (i % label_every == 0 or last) and label != drawn:
            drawn = label
            out.append(f'<text x="{_f(frame.x(i))}" y="{height - bottom + 16}" text-anchor="middle" fill="#495057">'
                       f"{escape(label)}</text>")
    base = frame.top + frame.ph
    out.append(f'<line x1="{frame.left}" x2="{x_end}" y1="{base}" y2="{base}" stroke="#868e96"/>')
    if x_title:
        out.append(f'<text x="{frame.left + frame.pw / 2:.1f}" y="{height - 6}" text-anchor="middle" fill="#495057">'
                   f"{escape(x_title)}</text>")
    return out


def _ref_lines(frame: _Frame, refs: list[tuple[str, float]], unit: str, x_end: int) -> list[str]:
    """Dashed reference lines (budgets), each with its name and value."""
    out = []
    for j, (name, value) in enumerate(refs):
        color = PALETTE[j % len(PALETTE)] if len(refs) > 1 else "#c92a2a"
        out.append(f'<line class="ref" x1="{frame.left}" x2="{x_end}" y1="{_f(frame.y(value))}" '
                   f'y2="{_f(frame.y(value))}" stroke="{color}" stroke-dasharray="6 4" stroke-width="1.5"/>')
        out.append(f'<text x="{x_end - 4}" y="{_f(frame.y(value) - 5)}" text-anchor="end" fill="{color}">'
                   f"{escape(name)} {escape(human(value, unit))}</text>")
    return out


def _series_lines(frame: _Frame, series: list[tuple[str, list[float]]], unit: str,
                  legend: list[tuple[int, int, int]]) -> list[str]:
    """Each series as a line (a dot for one value), its legend entry, and its latest value."""
    out = []
    ends: list[tuple[float, float, str, str]] = []
    for j, (name, values) in enumerate(series):
        color = PALETTE[j % len(PALETTE)]
        points = " ".join(f"{_f(frame.x(i))},{_f(frame.y(v))}" for i, v in enumerate(values))
        if len(values) == 1:
            out.append(f'<circle class="series" cx="{_f(frame.x(0))}" cy="{_f(frame.y(values[0]))}" r="3" fill="{color}"/>')
        elif values:
            out.append(f'<polyline class="series" fill="none" stroke="{color}" stroke-width="2.5" '
                       f'stroke-linejoin="round" points="{points}"/>')
        if values:
            ends.append((frame.y(values[-1]) - 7, frame.x(len(values) - 1) - 4, color, _exact(values[-1], unit)))
        lx, _, row = legend[j]
        out.append(f'<rect x="{lx}" y="{30 + 18 * row}" width="14" height="4" fill="{color}"/>')
        out.append(f'<text x="{lx + 18}" y="{36 + 18 * row}" fill="#212529">{escape(name)}</text>')
    # The latest value of each line, written at its end; labels that would overlap are pushed up.
    floor = None
    for ly, lx, color, text in sorted(ends, reverse=True):
        ly = ly if floor is None else min(ly, floor - 14)
        floor = ly
        out.append(f'<text class="end" x="{_f(lx)}" y="{_f(ly)}" text-anchor="end" font-weight="600" '
                   f'fill="{color}">{escape(text)}</text>')
    return out
