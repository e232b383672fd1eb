"""Steps the browser tests share: what a person does, in the words of the page."""

from playwright.sync_api import Page, expect

PASSWORD = "secret-pass-1"  # every test account's


def sign_in(page: Page, site: str, email: str, next_page: str) -> None:
    """Signs in through /login and lands on `next_page`."""
    page.goto(f"{site}/login?next={next_page}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Login").click()
    expect(page).to_have_url(site + next_page)
