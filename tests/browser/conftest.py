"""Browser tests: real Chromium, driven by Playwright through pytest-playwright's fixtures
(``browser``, ``new_context``, ``page``), against pytest-django's live server.

Every test here is marked ``browser``. Chromium comes from ``REFEREE_CHROMIUM`` (the
Makefile passes Debian's ``/usr/bin/chromium``); a missing browser is a failure, never a
skip. A failing test leaves its trace and a screenshot under ``test-results/`` (see the
pytest options in pyproject.toml; ``playwright show-trace`` opens a trace). The live
server needs ``DJANGO_ALLOW_ASYNC_UNSAFE=true``: Playwright's sync API runs an event loop
in the test's thread, and Django refuses database calls beside one otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from referee.demo.campaign import DEMO_LOGINS, demo_campaign_load

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
EXPECT_TIMEOUT_MS = 5_000  # what any assertion waits for; the player page polls every second
ACTION_TIMEOUT_MS = 10_000

expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(
            f"Browser tests need Chromium at {path!r} (set REFEREE_CHROMIUM, or run `make chromium` "
            "/ `apt-get install chromium` as root).",
            pytrace=False,
        )
    if not os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE"):
        pytest.fail(
            "Browser tests need DJANGO_ALLOW_ASYNC_UNSAFE=true in the environment (`make test` sets it).",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict, chromium_path: str) -> dict:
    """pytest-playwright's launch options, with Debian's Chromium (Playwright's own
    browser download is not available) and the flags that keep it quiet and offline."""
    return {**browser_type_launch_args, "executable_path": chromium_path, "args": CHROMIUM_ARGS}


@pytest.fixture
def new_context(new_context: Callable[..., BrowserContext]) -> Callable[..., BrowserContext]:
    """pytest-playwright's contexts (traced, closed after the test), one per person at the
    table, with a bounded wait for each action."""

    def make(**options) -> BrowserContext:
        context = new_context(**options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        return context

    return make


@pytest.fixture
def demo(transactional_db, live_server):
    """The demo campaign in the live server's database (flushed after each test)."""
    campaign, created = demo_campaign_load()
    assert created
    return campaign


@pytest.fixture
def sign_in(live_server, new_context) -> Callable[..., Page]:
    """``sign_in("gm")``: a new browser context whose user signed in through the login form;
    returns its page, on the campaign list. ``who`` is a demo login ("gm", "player") or
    ``(username, password)``; context options (e.g. ``viewport``) pass through."""

    def sign(who: str | tuple[str, str], **context_options) -> Page:
        username, password = DEMO_LOGINS[who] if isinstance(who, str) else who
        page = new_context(**context_options).new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
        expect(page.locator(".account .who")).to_have_text(username)
        return page

    return sign


@pytest.fixture
def campaign_url(live_server, demo) -> str:
    return f"{live_server.url}/c/{demo.code}/"


# Helpers the tests share -------------------------------------------------------------


def ship_row(page: Page, name: str):
    """The dashboard's Ships-panel row whose ship is named exactly ``name``."""
    return page.locator("#ships-panel tbody tr").filter(has=page.get_by_text(name, exact=True))


def mark_page(page: Page) -> None:
    """Leave a marker in the page's window: it survives HTMX swaps, not a reload."""
    page.evaluate("window.__noReload = 'still here'")


def expect_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__noReload") == "still here", f"{page.url} was reloaded"


OVERFLOWING = """(width) => {
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const wide = [...document.body.querySelectorAll("*")].filter(
    (el) => el.getBoundingClientRect().right > width + 1 && !clipped(el)
  );
  // The innermost culprits: elements none of whose children stick out themselves.
  return wide
    .filter((el) => !wide.some((other) => other !== el && el.contains(other)))
    .slice(0, 3)
    .map((el) => {
      const panel = el.closest("section[id], article[id]");
      const text = (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 60);
      return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${text}"` +
        ` (right edge ${Math.round(el.getBoundingClientRect().right)}px` +
        `${panel ? ", in #" + panel.id : ""})`;
    });
}"""


def horizontal_overflow(page: Page) -> str | None:
    """None when the page fits its viewport's width, else what sticks out (the body scrolls
    sideways); tables inside their own scrolling box are fine."""
    width = page.viewport_size["width"]
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width <= width + 1:
        return None
    culprits = "; ".join(page.evaluate(OVERFLOWING, width))
    return f"{page.url} is {scroll_width}px wide in a {width}px viewport: {culprits}"


def expect_no_horizontal_scroll(page: Page) -> None:
    problem = horizontal_overflow(page)
    assert problem is None, problem
