"""/login and /register paint their forms from the server: nothing moves when the islands take over."""

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
FORMS = {"/login": "Login", "/register": "Sign Up"}  # page: its submit button

# Every layout shift of the page so far (buffered), once two frames have passed since the call,
# with what moved; shifts right after an input are not layout instability (hadRecentInput).
LAYOUT_SHIFTS = """
() => new Promise((resolve) => {
  const shifts = [];
  const keep = (entries) => {
    for (const entry of entries) {
      if (entry.hadRecentInput) continue;
      const moved = entry.sources.map((source) => source.node?.outerHTML?.slice(0, 80) ?? "(gone)");
      shifts.push({ value: entry.value, moved });
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


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1366"])
@pytest.mark.parametrize("path", FORMS)
def test_the_sign_in_forms_do_not_move_the_page_when_their_island_mounts(
    site: str, page: Page, path: str, viewport: dict
):
    page.set_viewport_size(viewport)
    page.goto(site + path)
    # The server's form is disabled: enabled, it is the island's.
    expect(page.get_by_role("button", name=FORMS[path], exact=True)).to_be_enabled()
    expect(page.get_by_role("button", name="Continue with Google")).to_be_enabled()

    shifts = page.evaluate(LAYOUT_SHIFTS)

    assert sum(shift["value"] for shift in shifts) == 0, shifts


@pytest.mark.parametrize("path", FORMS)
def test_without_javascript_the_sign_in_forms_show_but_cannot_be_sent(
    live_site: str, browser: Browser, transactional_db, path: str
):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_site + path)

        expect(page.get_by_role("button", name=FORMS[path], exact=True)).to_be_disabled()
        expect(page.get_by_label("Email")).to_be_disabled()
    finally:
        context.close()
