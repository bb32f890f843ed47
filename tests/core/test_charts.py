"""Charts as pure functions: sparklines, Mermaid rows, SVG (deterministic, well-formed)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from tiergit.core import charts
from tiergit.core.status import FileStatus, StatusModel, TotalStatus

SVG = "{http://www.w3.org/2000/svg}"


def test_sparkline_scales_min_to_max():
    assert charts.sparkline([]) == ""
    assert charts.sparkline([0, 0, 0]) == "▁▁▁"
    assert charts.sparkline([5, 5]) == "▄▄"
    assert charts.sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█"
    assert charts.sparkline([10, 1000, 10]) == "▁█▁"


@given(st.lists(st.integers(min_value=0, max_value=10**9), max_size=60))
def test_sparkline_one_mark_per_value(values):
    line = charts.sparkline(values)
    assert len(line) == len(values) and set(line) <= set(charts.SPARK)
    if values and max(values) > min(values):
        assert line[values.index(max(values))] == "█" and line[values.index(min(values))] == "▁"


def test_budget_rows_one_per_file_then_per_tier():
    total = TotalStatus(0, 0, 0, 0, True, "healthy")
    model = StatusModel(".squad/memory", [], [
        FileStatus(".squad/memory/hot/picard.md", "hot", "warning", bytes=2048, tokens=900, lines=3, percent=90.0,
                   budget={"bytes": {"warn": 3276.8, "max": 4096.0}, "tokens": {"warn": 800, "max": 1000}}),
        FileStatus(".squad/memory/wiki/x.md", "wiki", "healthy", bytes=1, tokens=1, lines=1, budget={}),
    ], total)
    rows = charts.budget_rows(model)
    assert rows == [{"label": "hot/picard", "tier": "hot", "percent": 90.0, "warn_percent": 80.0}]
    many = StatusModel("m", [], [FileStatus(f"m/hot/a{i}.md", "hot", "healthy", bytes=i, percent=float(i),
                                            budget={"bytes": {"warn": 50, "max": 100}}) for i in range(20)], total)
    rows = charts.budget_rows(many)
    assert rows == [{"label": "hot (fullest of 20)", "tier": "hot", "percent": 19.0, "warn_percent": 50.0}]


def test_mermaid_block_shape():
    block = charts.mermaid_budget_chart([{"label": 'hot/"x"', "percent": 135.0, "warn_percent": 80.0}])
    lines = block.splitlines()
    assert lines[0] == "```mermaid" and lines[1] == "xychart-beta" and lines[-1] == "```"
    assert '    x-axis ["hot/_x_"]' in lines
    assert '    y-axis "% of budget" 0 --> 150' in lines          # room above the tallest bar
    assert "    bar [135]" in lines and "    line [80]" in lines and "    line [100]" in lines


def test_svg_line_chart_is_wellformed_and_deterministic():
    series = [("hot", [100, 200, 150]), ("legacy", [1000, 5000, 9000])]
    one = charts.svg_line_chart(["a", "b", "c"], series, title="growth <&>", refs=[("budget", 4096)])
    assert one == charts.svg_line_chart(["a", "b", "c"], series, title="growth <&>", refs=[("budget", 4096)])
    root = ET.fromstring(one)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 720 320"
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2
    ys = [float(p.split(",")[1]) for p in lines[1].get("points").split()]
    assert ys[0] > ys[1] > ys[2]                                   # growing values climb (svg y grows down)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "growth <&>" in texts and "hot" in texts and "legacy" in texts and "budget 4 KB" in texts
    assert "10 KB" in texts                                        # round KB ticks for bytes


def test_svg_single_point_and_empty():
    root = ET.fromstring(charts.svg_line_chart(["x"], [("hot", [5])], title="t"))
    assert len(root.findall(f"{SVG}circle")) == 1
    ET.fromstring(charts.svg_line_chart([], [], title="empty"))


def test_nice_ceiling_and_human():
    assert charts.nice_ceiling(0) == (1.0, 0.25)
    top, step = charts.nice_ceiling(87)
    assert top >= 87 and step in (20, 25) and top / step <= 6
    assert charts.human(512) == "512 B" and charts.human(2048) == "2 KB" and charts.human(1536) == "1.5 KB"
    assert charts.human(12000, "tokens") == "12k"
