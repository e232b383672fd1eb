"""A visitor writes to the club from the support page and hears it arrived; the admin finds the
message in the Support Inbox (the admins' notice links there), replies from the page, and the
visitor's mailbox gets the reply under their message."""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from e2e.journeys import sign_in
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def test_a_visitors_message_is_answered_from_the_support_inbox(site: str, page: Page, new_context, mailbox):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann Admin")
    page.goto(f"{site}/support")
    page.get_by_label("Name").fill("Vic Visitor")
    page.get_by_label("Email").fill("vic@example.com")
    page.get_by_label("Message").fill("Is the club open on Sunday?")
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_text("Thank you! Your message has been sent.").first).to_be_visible()
    run_due_tasks()
    assert [mail.subject for mail in mailbox.messages(to="vic@example.com")] == [
        "Sports Club has your message: we'll reply within 24 hours"
    ]
    assert [mail.subject for mail in mailbox.messages(to="ann@example.com")] == [
        "1 support message waiting for a reply"
    ]

    admin = new_context().new_page()
    sign_in(admin, site, "ann@example.com", "/dashboard")
    admin.get_by_role("link", name="Support Inbox").click()
    row = admin.get_by_role("row", name="Vic Visitor")
    expect(row).to_contain_text("Is the club open on Sunday?")
    expect(row).to_contain_text("Waiting")
    row.get_by_role("link", name="Open the message of Vic Visitor").click()
    admin.get_by_role("button", name="Send Reply").click()
    expect(admin.get_by_label("Your reply")).to_have_accessible_description("Please write your reply.")
    admin.get_by_label("Your reply").fill("Yes: from 8:00 to 20:00. See you there!")
    admin.get_by_role("button", name="Send Reply").click()

    expect(admin.locator("[data-rht-toaster]")).to_contain_text("Your reply was sent to vic@example.com.")
    expect(admin.get_by_role("article")).to_contain_text("Yes: from 8:00 to 20:00. See you there!")
    expect(admin.locator("#status")).to_contain_text("Handled by Ann Admin")
    run_due_tasks()
    [reply] = [mail for mail in mailbox.messages(to="vic@example.com") if mail.subject.startswith("Re:")]
    assert "Yes: from 8:00 to 20:00. See you there!" in reply.text
    assert "You wrote:\nIs the club open on Sunday?" in reply.text
    admin.get_by_role("link", name="← Support Inbox").click()
    expect(admin.get_by_text("No messages are waiting for a reply.")).to_be_visible()
