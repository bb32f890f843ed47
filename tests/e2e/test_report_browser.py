"""The HTML report opened in a real headless Chromium (Debian's `chromium`, installed by
scripts/test), driven over the DevTools protocol on a pipe (--remote-debugging-pipe: no
port, no websocket library): the chart and every tier render, the console has no errors,
it fits a phone screen, and print media hides the screen-only parts."""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import time
from pathlib import Path

import pytest
from conftest import git, tiergit, write

pytestmark = pytest.mark.e2e

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe"]


class Browser:
    """A minimal DevTools-protocol client over chromium's fd 3 (commands) / fd 4 (replies)."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM, "chromium is not installed: run `bash scripts/test`, which installs it (apt-get install chromium)"
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()
        # Move the child's ends above 100 so `3<&x 4>&y` can never clobber one with the other.
        for name in ("cmd_r", "res_w"):
            low = locals()[name]
            high = fcntl.fcntl(low, fcntl.F_DUPFD, 100)
            os.close(low)
            if name == "cmd_r":
                cmd_r = high
            else:
                res_w = high
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{cmd_r} 4>&{res_w}', CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
             "about:blank"],
            pass_fds=(cmd_r, res_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(res_w)
        self.buf = b""
        self.next_id = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable", session=True)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.res_r], [], [], max(0.0, left))
            if not ready:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, params: dict | None = None, session: bool = False, timeout: float = 30) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self.next_id:
                assert "error" not in reply, f"{method}: {reply['error']}"
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                return self.events.pop(i)
        while True:
            ev = self._read(deadline)
            if ev.get("method") == method:
                return ev
            self.events.append(ev)

    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_event("Page.loadEventFired")

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries (failed loads etc.) so far."""
        self.js("1")  # flush pending events
        out = []
        for ev in self.events:
            p = ev.get("params", {})
            if ev.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif ev.get("method") == "Runtime.exceptionThrown":
                out.append("exception: " + p["exceptionDetails"].get("text", ""))
            elif ev.get("method") == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append("log: " + p["entry"]["text"])
        return out

    def viewport(self, width: int, height: int, mobile: bool) -> None:
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": mobile}, session=True)

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except Exception:  # noqa: BLE001 - the process is killed below anyway
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.res_r)


@pytest.fixture
def browser(tmp_path):
    b = Browser(tmp_path / "profile")
    yield b
    b.close()


@pytest.fixture(scope="module")
def report_file(tmp_path_factory) -> Path:
    """A squad store with a legacy history.md growing over 8 versions, hot/cold/wiki files."""
    base = tmp_path_factory.mktemp("report")
    repo = base / "team"
    repo.mkdir()
    env = {"HOME": str(base), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@x",
           "GIT_COMMITTER_NAME": "C", "GIT_COMMITTER_EMAIL": "c@x", "TIERGIT": "0"}
    git(repo, "init", "-q", "-b", "main", env=env)
    assert tiergit(repo, "init", "--preset", "squad", env=env).returncode == 0
    for i in range(8):
        # A legacy history.md growing by one session a commit (hand-written, shaped like Squad's).
        write(repo / ".squad/agents/atlas/history.md", "# Atlas — History\n\n## Learnings\n\n" + "".join(
            f"### Ingest retry {k} (2026-04-{k + 1:02d})\n\n**Context:** feed {k} stalled at night.\n\n"
            f"**Fix:** retry with backoff, cap {k + 2} attempts.\n\n" * 3 for k in range(i + 1)))
        write(repo / ".squad/memory/hot/atlas.md", f"# atlas hot\n\n## Current task\n- step {i}\n" + "- note\n" * i)
        write(repo / ".squad/memory/cold/atlas.md", "# atlas cold\n\n" + "".join(
            f"### Session {k} (2026-05-{k + 1:02d})\n- **Pattern:** lesson {k}\n\n" for k in range(i + 1)))
        if i >= 4:
            write(repo / ".squad/memory/wiki/auth.md", "# auth\n\n- [rule] rotate tokens daily ^m-1234abcd\n")
        git(repo, "add", "-A", env=env)
        git(repo, "commit", "-q", "--no-verify", "-m", f"session {i}", env=env)
    out = base / "report.html"
    proc = tiergit(repo, "report", "--html", str(out), env=env)
    assert proc.returncode == 0, proc.stderr
    return out


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_report_renders_chart_and_every_tier_without_console_errors(browser, report_file, tmp_path):
    browser.viewport(1000, 900, mobile=False)
    browser.open(report_file.as_uri())
    seen = browser.js("""JSON.stringify({
      growth: (() => { const r = document.querySelector('svg.growth').getBoundingClientRect();
                       return [r.width, r.height]; })(),
      lines: document.querySelectorAll('svg.growth polyline.series').length,
      bars: document.querySelectorAll('.bars .bar-fill').length,
      tiers: [...document.querySelectorAll('[data-tier]')].map(e => {
        const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return [e.dataset.tier, r.width, r.height, s.visibility, s.display]; }),
    })""")
    seen = json.loads(seen)
    assert seen["growth"][0] > 300 and seen["growth"][1] > 100, seen
    # hot, cold, wiki, Squad's decisions.md and governed store (tiers read in place), the legacy history.md
    assert seen["lines"] == 6, seen
    assert seen["bars"] == 3, seen             # one bar per budgeted file
    assert [t[0] for t in seen["tiers"]] == ["hot", "cold", "wiki"]
    for name, width, height, visibility, display in seen["tiers"]:
        assert width > 50 and height > 30 and visibility == "visible" and display != "none", name
    assert browser.errors() == []
    shot = base64.b64decode(browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                                         session=True)["data"])
    width, height = _png_size(shot)
    assert width == 1000 and height > 1200 and len(shot) > 30_000
    keep = os.environ.get("TIERGIT_SCREENSHOT_DIR")
    (Path(keep) if keep else tmp_path).joinpath("report-desktop.png").write_bytes(shot)


def test_report_fits_a_phone_and_prints_cleanly(browser, report_file, tmp_path):
    browser.viewport(390, 844, mobile=True)
    browser.open(report_file.as_uri())
    page = json.loads(browser.js("""JSON.stringify({
      scroll: document.documentElement.scrollWidth,
      wrap: document.querySelector('.chart-wrap').getBoundingClientRect().right,
      svg: document.querySelector('svg.growth').getBoundingClientRect().width,
      bars: Math.max(...[...document.querySelectorAll('.bar-track')].map(e => e.getBoundingClientRect().right)),
      cards: [...document.querySelectorAll('[data-tier]')].map(e => {
        const r = e.getBoundingClientRect(); return [r.width, r.right]; })})"""))
    assert page["scroll"] <= 390, page         # no sideways scrolling of the page on a phone
    assert page["wrap"] <= 390 and page["bars"] <= 390, page
    assert page["svg"] >= 540, page            # the chart keeps readable text: it scrolls inside its box
    assert all(w >= 150 and right <= 390 for w, right in page["cards"]), page   # cards wrap, stay readable
    shot = base64.b64decode(browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                                         session=True)["data"])
    keep = os.environ.get("TIERGIT_SCREENSHOT_DIR")
    (Path(keep) if keep else tmp_path).joinpath("report-phone.png").write_bytes(shot)
    browser.call("Emulation.setEmulatedMedia", {"media": "print"}, session=True)
    printed = json.loads(browser.js("""JSON.stringify({
      footer: getComputedStyle(document.querySelector('footer.no-print')).display,
      bg: getComputedStyle(document.body).backgroundColor,
      growth: document.querySelector('svg.growth').getBoundingClientRect().height})"""))
    assert printed == {"footer": "none", "bg": "rgb(255, 255, 255)", "growth": printed["growth"]}
    assert printed["growth"] > 100
    pdf = base64.b64decode(browser.call("Page.printToPDF", {"printBackground": False}, session=True)["data"])
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    assert browser.errors() == []


def test_console_error_detection_is_live(browser, tmp_path):
    """The check above would catch a broken page: a script error and a missing image are reported."""
    page = tmp_path / "broken.html"
    page.write_text('<!doctype html><p>x</p><script>console.error("boom")</script><img src="missing.png">')
    browser.open(page.as_uri())
    errors = browser.errors()
    assert any("boom" in e for e in errors), errors
    assert any("missing.png" in e or "ERR_FILE_NOT_FOUND" in e for e in errors), errors
