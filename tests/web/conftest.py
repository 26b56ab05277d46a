"""Fixtures for the browser tests: a real `gamehall serve` on a free loopback port with a temporary
database, and Debian's Chromium (never a downloaded browser) driven headless by Playwright."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import OPEN_LIMITS

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HallProcess:
    """`gamehall serve` in a subprocess; the test plug-ins add Halali!'s set-up end phase, Hula's
    set-up race and the small test games (which have no board module: the page plays them on its
    generic board)."""

    def __init__(self, tmp: Path, log_level: str = "warning", extra: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.port = _free_port()
        self.log = tmp / "server.log"
        db = tmp / "hall.db"
        cmd = [sys.executable, "-m", "gamehall", "serve", "--port", str(self.port),
               "--db", str(db), "--plugin", "tests.web.halali_setup", "--plugin",
               "tests.web.hula_setup", "--plugin", "tests.server.games", "--bot-delay", "0.05",
               "--rate", "1000", "--burst", "1000", "--log-level", log_level,
               "--argon2-time-cost", "1", "--argon2-memory-kib", "8192",
               "--review-level", "200", *OPEN_LIMITS, *extra]
        path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
        environ = {**os.environ, "PYTHONPATH": path, **(env or {})}
        self.proc = subprocess.Popen(cmd, cwd=tmp, env=environ, stdout=self.log.open("wb"),
                                     stderr=subprocess.STDOUT)
        self._wait()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _wait(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gamehall serve exited: {self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "api/games", timeout=1) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"gamehall serve did not start: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture(scope="session")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    server = HallProcess(tmp_path_factory.mktemp("hall"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if sync_playwright is None:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    if not (Path(CHROMIUM).is_file() or shutil.which("chromium")):
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Pages:
    """New pages, each in its own browser context (its own storage: its own player)."""

    def __init__(self, browser: Browser, hall: HallProcess, shots: Path | None) -> None:
        self.browser, self.hall, self.shots = browser, hall, shots
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, width: int = 1280, height: int = 800, reduced_motion: bool = False,
            locale: str = "en-US", touch: bool = False) -> Page:
        """A page of its own; `reduced_motion`: the user asks for reduced motion; `locale`: the
        language the browser asks for; `touch`: a touch screen (a phone: taps)."""
        context = self.browser.new_context(viewport={"width": width, "height": height},
                                           reduced_motion="reduce" if reduced_motion
                                           else "no-preference", locale=locale,
                                           has_touch=touch)
        context.set_default_timeout(15000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.goto(self.hall.url)
        # the catalogue loads after the page: until then `t()` says keys (a test that runs a
        # page module at once read "page.review.graph_label" for its label on a busy machine)
        page.locator("html[data-catalogue]").wait_for(state="attached")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture()
def pages(browser: Browser, hall: HallProcess, request: pytest.FixtureRequest) -> Iterator[Pages]:
    shots = os.environ.get("GAMEHALL_SHOTS")  # a folder: keep a screenshot of every page
    made = Pages(browser, hall, Path(shots) if shots else None)
    try:
        yield made
        assert not made.errors, f"JavaScript errors on the page: {made.errors}"
    finally:
        if made.shots is not None:
            made.shots.mkdir(parents=True, exist_ok=True)
            for i, context in enumerate(made.contexts):
                for j, page in enumerate(context.pages):
                    page.screenshot(path=str(made.shots / f"{request.node.name}-{i}{j}.png"))
        made.close()
