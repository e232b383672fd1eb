"""The support inbox: a message from the support page reaches its sender (an acknowledgement) and
the admins (batched, like booking requests); an admin reads it with its text, replies by e-mail
from the page (the reply kept beside the message, audited) and marks it handled (who, when)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from audit.models import AuditEntry
from content.models import ContactMessage, ContactReply
from content.services import contact_message_create
from notifications.models import Notification
from notifications.tests.test_delivery import make_retries_due
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db

INBOX = "/dashboard/support-inbox"
VISITOR = {"name": "Vic Visitor", "email": "vic@example.com", "message": "Is the club open\non Sunday?"}


@pytest.fixture
def contact():
    return contact_message_create(**VISITOR)


@pytest.fixture
def ann(sign_in_as):
    return sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin")


def test_a_message_is_acknowledged_to_its_sender_and_announced_to_the_admins(client, mailbox):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    User.objects.create_user("ada@example.com")  # not an admin: not told

    client.post("/support", VISITOR)
    run_due_tasks()

    [thanks] = mailbox.messages(to="vic@example.com")
    assert thanks.subject == "Sports Club has your message: we'll reply within 24 hours"
    for part in (thanks.text, thanks.html):
        assert "Hello Vic Visitor" in part
        assert "Is the club open" in part
        assert "E-mail preferences" not in part  # a visitor has none
    [notice] = mailbox.messages(to="ann@example.com")
    assert notice.subject == "1 support message waiting for a reply"
    assert "Vic Visitor <vic@example.com>: Is the club open" in notice.text
    assert "http://127.0.0.1:8000/dashboard/support-inbox" in notice.text
    assert mailbox.messages(to="ada@example.com") == []


def test_the_admins_hear_of_the_next_messages_together(mailbox):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    contact_message_create(**VISITOR)
    run_due_tasks()
    contact_message_create(**{**VISITOR, "message": "And on Monday?"})
    contact_message_create(**{**VISITOR, "message": "And on Tuesday?"})

    run_due_tasks()

    assert [mail.subject for mail in mailbox.messages(to="ann@example.com")] == [
        "1 support message waiting for a reply"
    ]
    [later] = Notification.objects.filter(event="contacts_waiting", status=Notification.Status.PENDING)
    assert later.subject == "3 support messages waiting for a reply"
    assert later.send_after > timezone.now() + timedelta(minutes=1)


def test_the_inbox_lists_the_waiting_messages_with_their_text(ann, contact):
    handled = contact_message_create(**{**VISITOR, "message": "Thanks, all sorted."})
    handled.handled_at = timezone.now()
    handled.save()

    waiting = ann.get(INBOX).content.decode()
    every = ann.get(INBOX, {"show": "all"}).content.decode()

    assert "Is the club open\non Sunday?" in waiting
    assert "Thanks, all sorted." not in waiting
    assert "Is the club open\non Sunday?" in every
    assert "Thanks, all sorted." in every


def test_an_empty_inbox_says_so(ann):
    assert "No messages are waiting for a reply." in ann.get(INBOX).content.decode()
    assert "No support messages yet." in ann.get(INBOX, {"show": "all"}).content.decode()


def test_a_reply_is_e_mailed_kept_beside_the_message_audited_and_handles_it(ann, contact, mailbox):
    response = ann.post(f"{INBOX}/{contact.pk}", {"text": "Yes: 8:00 to 20:00.\nSee you!"}, follow=True)
    run_due_tasks()

    page = response.content.decode()
    assert "Your reply was sent to vic@example.com." in page
    assert "Yes: 8:00 to 20:00.\nSee you!" in page
    [reply] = ContactReply.objects.all()
    assert (reply.message, reply.by.email, reply.text) == (
        contact,
        "ann@example.com",
        "Yes: 8:00 to 20:00.\nSee you!",
    )
    [mail] = [mail for mail in mailbox.messages(to="vic@example.com") if mail.subject.startswith("Re:")]
    assert mail.subject == "Re: your message to Sports Club"
    assert "Yes: 8:00 to 20:00." in mail.text
    assert "You wrote:\nIs the club open\non Sunday?" in mail.text
    contact.refresh_from_db()
    assert contact.handled_by.email == "ann@example.com"
    assert AuditEntry.objects.filter(action="contact.reply", target_id=str(contact.pk)).exists()


def test_an_empty_reply_is_refused_under_its_field_and_sends_nothing(ann, contact, mailbox):
    response = ann.post(f"{INBOX}/{contact.pk}", {"text": "   "})

    assert response.status_code == 200
    assert "Please write your reply." in response.content.decode()
    assert not ContactReply.objects.exists()
    assert not Notification.objects.filter(event="contact_reply").exists()


def test_marking_handled_records_who_and_when_once(ann, sign_in_as, contact):
    abe = sign_in_as("abe@example.com", User.Role.ADMIN)

    response = ann.post(f"{INBOX}/{contact.pk}/handled", follow=True)
    abe.post(f"{INBOX}/{contact.pk}/handled")

    assert "The message of Vic Visitor is marked handled." in response.content.decode()
    contact.refresh_from_db()
    assert contact.handled_by.email == "ann@example.com"
    assert contact.handled_at is not None
    assert "Handled by Ann Admin" in ann.get(f"{INBOX}/{contact.pk}").content.decode()
    assert AuditEntry.objects.filter(action="contact.handle").count() == 1


@pytest.mark.parametrize("step", ["inbox", "message", "reply", "handled"])
def test_only_admins_reach_the_inbox(caller, contact, step):
    kind, client = caller
    path = {"inbox": INBOX, "message": f"{INBOX}/{contact.pk}", "reply": f"{INBOX}/{contact.pk}"}.get(
        step, f"{INBOX}/{contact.pk}/handled"
    )

    response = client.post(path, {"text": "Hello"}) if step in ("reply", "handled") else client.get(path)

    if kind == "admin":
        assert response.status_code == (200 if step in ("inbox", "message") else 302)
    else:
        assert response.status_code == 302
        assert response["Location"].startswith("/login" if kind == "anonymous" else "/forbidden")
        assert not ContactReply.objects.exists()
        assert ContactMessage.objects.get().handled_at is None


def test_a_message_that_is_not_there_is_not_found(ann):
    assert ann.get(f"{INBOX}/999").status_code == 404
    assert ann.post(f"{INBOX}/999/handled").status_code == 404


def test_the_inbox_reads_as_many_queries_for_thirty_messages_as_for_three(ann):
    def queries_with(count: int) -> int:
        for number in range(count - ContactMessage.objects.count()):
            ContactMessage.objects.create(
                name=f"Person {number}", email=f"p{number}@example.com", message="Hi"
            )
        with CaptureQueriesContext(connection) as queries:
            assert ann.get(INBOX, {"show": "all"}).status_code == 200
        return len(queries)

    assert queries_with(3) == queries_with(30)


def test_a_reply_written_while_the_mail_server_is_away_reaches_the_visitor_once_it_is_back(
    ann, contact, mailbox
):
    mailbox.stop()
    ann.post(f"{INBOX}/{contact.pk}", {"text": "Yes, from 8:00."})
    run_due_tasks()
    mailbox.start()
    make_retries_due()
    run_due_tasks()
    run_due_tasks()  # nothing is sent twice

    replies = [mail for mail in mailbox.messages(to="vic@example.com") if mail.subject.startswith("Re:")]
    assert [mail.text.count("Yes, from 8:00.") for mail in replies] == [1]
