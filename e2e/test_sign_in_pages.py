"""/login and /register paint their forms from the server: nothing moves when the islands take over."""

import pytest
from playwright.sync_api import Page, expect
from pytest_playwright import CreateContextCallback

from e2e.journeys import PHONE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}
FORMS = {"/login": "Login", "/register": "Sign Up"}  # page: its submit button

# Every layout shift of the page so far (buffered), once two frames have passed since the call,
# with what moved and whether it came after the document was parsed (the islands' scripts are
# modules, run only then); shifts right after an input are not layout instability (hadRecentInput).
LAYOUT_SHIFTS = """
() => new Promise((resolve) => {
  const parsed = performance.getEntriesByType("navigation")[0].domInteractive;
  const shifts = [];
  const keep = (entries) => {
    for (const entry of entries) {
      if (entry.hadRecentInput) continue;
      const moved = entry.sources.map((source) => source.node?.outerHTML?.slice(0, 80) ?? "(gone)");
      shifts.push({ value: entry.value, moved, afterParsing: entry.startTime >= parsed });
    }
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ type: "layout-shift", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
    keep(observer.takeRecords());
    observer.disconnect();
    resolve(shifts);
  }, 100)));
})
"""


def shifts_until_the_island_takes_over(page: Page, url: str, path: str) -> list[dict]:
    """The layout shifts of `path` from its first paint until its island has taken over the form."""
    page.goto(url + path)
    # The server's form is disabled: enabled, it is the island's.
    expect(page.get_by_role("button", name=FORMS[path], exact=True)).to_be_enabled()
    expect(page.get_by_role("button", name="Continue with Google")).to_be_enabled()
    return page.evaluate(LAYOUT_SHIFTS)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1366"])
@pytest.mark.parametrize("path", FORMS)
def test_the_sign_in_forms_do_not_move_the_page_when_their_island_mounts(
    site: str, page: Page, path: str, viewport: dict
):
    page.set_viewport_size(viewport)

    shifts = shifts_until_the_island_takes_over(page, site, path)

    mounting = [shift for shift in shifts if shift["afterParsing"]]
    assert sum(shift["value"] for shift in mounting) == 0, mounting


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1366"])
@pytest.mark.parametrize("path", FORMS)
def test_a_slow_device_painting_the_sign_in_pages_in_parts_sees_them_hold_still(
    site: str, page: Page, path: str, viewport: dict
):
    # A CPU ten times slower, as a cheap phone's or a loaded machine's: Chromium then paints the
    # page while it is still parsing it, and a card centred on the screen would climb as it grows.
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 10})
    page.set_viewport_size(viewport)

    shifts = shifts_until_the_island_takes_over(page, site, path)

    # What is left is the navigation bar filling in as it arrives (under 0.001).
    assert sum(shift["value"] for shift in shifts) < 0.01, shifts


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1366"])
@pytest.mark.parametrize("path", FORMS)
def test_the_footer_starts_below_the_first_screen_of_the_sign_in_pages(
    site: str, page: Page, path: str, viewport: dict
):
    # Held at the bottom of a screen taller than the page, the footer would climb as a slow device
    # paints its columns one by one (in view, that is a layout shift).
    page.set_viewport_size(viewport)
    page.goto(site + path)

    footer = page.locator("footer").bounding_box()
    assert footer is not None
    assert footer["y"] >= viewport["height"]


@pytest.mark.parametrize("path", FORMS)
def test_without_javascript_the_sign_in_forms_show_but_cannot_be_sent(
    live_site: str, new_context: CreateContextCallback, transactional_db, path: str
):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_site + path)

    expect(page.get_by_role("button", name=FORMS[path], exact=True)).to_be_disabled()
    expect(page.get_by_label("Email")).to_be_disabled()
