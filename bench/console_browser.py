"""From a tap to the table screen drawn again, in a real browser: what the croupier feels.

docs/conventions.md, P1.

Serves the product under gunicorn as `bench/console_load.py` does (production settings, on
loopback; SQLite unless DATABASE_URL is set), then one croupier in Debian's chromium, driven by
Playwright, plays the rules' worked examples through the screen, tapping what a croupier taps
(the browser tests' driver, tests/e2e/driver.py). For each recorded action the page itself
times, with `performance.now()`, from the moment htmx sends the post to the moment the answer's
regions are swapped in and the next frame is painted: network, server, swap and paint, without
Playwright's own overhead. Prints p50/p75/p95/max and the largest answer.

A croupier works one table at a time: this is the latency of one screen on a quiet server; the
load bench measures many screens at once.

    .venv/bin/python bench/console_browser.py [--taps 300]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/browser \\
        .venv/bin/python bench/console_browser.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.console_load import PASSWORD, bench_env, data_create, percentile, served

# Set once per page: the post's start (htmx:beforeRequest) and, after the swap, the painted frame.
TIMER = """
() => {
  window.__drawn = [];
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.requestConfig.verb === "post") window.__sent = performance.now();
  });
  document.body.addEventListener("htmx:afterSettle", () => {
    const sent = window.__sent;
    if (sent === undefined) return;
    window.__sent = undefined;
    requestAnimationFrame(() => setTimeout(() => window.__drawn.push(performance.now() - sent)));
  });
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=300, help="recorded actions to time")
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("Debian's chromium is needed: apt-get install chromium")

    folder = Path(tempfile.mkdtemp(prefix="console-browser-"))
    env = bench_env(folder)
    print(f"database: {'PostgreSQL' if 'DATABASE_URL' in env else 'SQLite ' + str(folder)}")
    (assignment,) = data_create((1,), args.taps)[0]

    from playwright.sync_api import sync_playwright

    from tests.e2e.driver import play

    drawn: list[float] = []
    sizes: list[int] = []
    with served(env, folder) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_context(
            base_url=f"http://127.0.0.1:{port}", viewport={"width": 1366, "height": 900}
        ).new_page()
        page.on("response", lambda r: _size(r, sizes))
        page.goto("/login/")
        page.get_by_label("Username").fill(assignment.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(lambda url: "/login/" not in url)
        started = time.monotonic()
        for table_session, scenario, ids, session_key in assignment.tables:
            # The table's own croupier (bench/console_load.py, `Assignment`).
            # At the root, as the login set it: a cookie for the page's own path would sit
            # beside the first croupier's, who would still be the one the server sees.
            root = f"http://127.0.0.1:{port}/"
            page.context.add_cookies([{"name": "sessionid", "value": session_key, "url": root}])
            page.goto(f"/console/tables/{table_session}/")
            page.locator("#desk").wait_for()
            page.evaluate(TIMER)
            for action in scenario["actions"]:
                if "expect_error" in action:
                    continue
                status = play(page, action, ids)
                assert status == 200, (scenario["name"], action, status)
                page.wait_for_function("n => window.__drawn.length >= n", arg=1)
                drawn.append(page.evaluate("window.__drawn.pop()"))
                if len(drawn) >= args.taps:
                    break
            if len(drawn) >= args.taps:
                break
        elapsed = time.monotonic() - started
        browser.close()

    print(
        f"{len(drawn)} actions tapped in {elapsed:.0f} s; tap to screen drawn, ms: "
        f"p50 {percentile(drawn, 50):.1f}, p75 {percentile(drawn, 75):.1f}, "
        f"p95 {percentile(drawn, 95):.1f}, max {max(drawn):.1f}, "
        f"mean {statistics.mean(drawn):.1f}"
    )
    if sizes:
        print(f"answers: median {statistics.median(sizes):.0f} B, max {max(sizes)} B")


def _size(response: Any, sizes: list[int]) -> None:
    if response.request.method == "POST" and "/record/" in response.url:
        sizes.append(len(response.body()))


if __name__ == "__main__":
    main()
