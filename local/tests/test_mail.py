"""Local mode: the local mailbox's pages list and show what the site sent; production never routes them."""

import pytest

from bookings.tests.factories import make_booking
from club.tests.test_settings import served_in_production
from payments.tests.helpers import post_event, signed, succeeded_event
from payments.tests.test_receipt_email import paid  # noqa: F401 - a fixture
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


def test_the_mail_page_lists_the_messages_and_shows_each_part(client, mailbox):
    booking = make_booking()
    run_due_tasks()

    listing = client.get("/local/mail").content.decode()
    [mail] = mailbox.messages()
    assert "Your request for" in listing
    assert f'href="/local/mail/{mail.id}"' in listing

    page = client.get(f"/local/mail/{mail.id}").content.decode()
    assert booking.user.email in page
    assert "Sports Club &lt;club@localhost&gt;" in page
    assert f"http://127.0.0.1:8000/dashboard/bookings/{booking.pk}" in page  # the text part
    assert f'src="/local/mail/{mail.id}/html"' in page

    html = client.get(f"/local/mail/{mail.id}/html")
    assert html.content.decode() == mail.html
    assert "sandbox" in html["Content-Security-Policy"]


def test_an_attachment_downloads_as_it_was_sent(client, mailbox, paid):  # noqa: F811 - the fixture
    _, intent_id = paid
    payload = succeeded_event(intent_id)
    post_event(payload, signed(payload))
    run_due_tasks()
    [receipt] = [mail for mail in mailbox.messages() if mail.subject.startswith("Receipt")]

    response = client.get(f"/local/mail/{receipt.id}/attachments/0")

    assert response["Content-Type"] == "text/calendar"
    assert response.content == receipt.attachments[0].content
    assert client.get(f"/local/mail/{receipt.id}/attachments/1").status_code == 404


@pytest.mark.parametrize("name", ["../../etc/passwd", "nothing-here", "123"])
def test_only_the_mailboxs_own_messages_are_shown(client, mailbox, name):
    assert client.get(f"/local/mail/{name}").status_code == 404


def test_the_page_says_when_there_is_no_mail_yet(client, mailbox):
    assert "No mail yet." in client.get("/local/mail").content.decode()


@pytest.mark.integration  # starts the site's own processes
def test_production_never_routes_the_mail_pages():
    assert served_in_production("/local/mail", "/local/mail/1-2", "/local/mail/1-2/html") == []


def test_the_mail_page_reads_only_the_newest_messages(client, mailbox, monkeypatch):
    for _ in range(3):
        make_booking()
    run_due_tasks()
    monkeypatch.setattr("local.mail.LISTED", 2)

    listing = client.get("/local/mail").content.decode()

    newest = mailbox.messages()[-2:]
    assert [mail.id for mail in newest if f'href="/local/mail/{mail.id}"' in listing] == [
        mail.id for mail in newest
    ]
    assert f'href="/local/mail/{mailbox.messages()[0].id}"' not in listing
