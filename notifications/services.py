"""Messages to people: recorded once in the transaction of what they tell of, then delivered by the
worker (the `deliver` task), retried while the mail server does not take them."""

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.policy import Policy
from typing import Any, Self

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from kernel.retries import backoff
from kernel.text import one_line

from .models import Notification, Preferences

Status = Notification.Status
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str
    content: str


@dataclass(frozen=True)
class Visitor:
    """Someone without an account who wrote to the club: told at the address they gave."""

    name: str
    email: str


def absolute_url(path: str) -> str:
    """A link for an e-mail: mail is read away from the site, so every link names it."""
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(*, user: User, optional: str) -> str:
    return signing.dumps({"user": user.pk, "optional": optional}, salt=UNSUBSCRIBE_SALT)


def _unsubscribe_url(*, user: User, optional: str) -> str:
    return absolute_url(
        reverse("notifications:unsubscribe", args=[unsubscribe_token(user=user, optional=optional)])
    )


def _render(
    *, recipient: User | Visitor, template: str, context: dict[str, Any], optional: str
) -> tuple[str, str]:
    context = {
        "site_name": settings.SITE_NAME,
        "club_contact": settings.CLUB_CONTACT,
        "site_url": absolute_url("/"),
        "recipient": recipient,
        **context,
    }
    if isinstance(recipient, User):  # a visitor has no preferences to set, nor optional messages
        context["preferences_url"] = absolute_url(reverse("notifications:preferences"))
        if optional:
            context["unsubscribe_url"] = _unsubscribe_url(user=recipient, optional=optional)
    return (
        render_to_string(f"email/{template}.txt", context),
        render_to_string(f"email/{template}.html", context),
    )


def notify(
    *,
    event: str,
    recipient: User | Visitor,
    about: str,
    subject: str,
    template: str,
    context: dict[str, Any],
    attachments: Callable[[], tuple[Attachment, ...]] = tuple,
    optional: str = "",
) -> Notification | None:
    """Records a message for `recipient` about `about` (e.g. "booking:12") and queues its delivery,
    unless this event already told them of it; inside the transaction of the change it tells of, so
    that both commit or neither. `optional` names the preference that turns it off (a person's:
    a visitor gets only the messages everyone gets).

    A message that cannot be built (a template or an attachment, made here for that reason, failing
    on its data) is recorded as failed, and the change commits without it."""
    if isinstance(recipient, Visitor) and optional:
        raise ValueError("A visitor has no preferences: only messages everyone gets go to them.")
    fields: dict[str, object] = {"subject": one_line(subject)[:200], "optional": optional}
    try:
        text, html = _render(recipient=recipient, template=template, context=context, optional=optional)
        files = [vars(attachment) for attachment in attachments()]
        fields |= {"text": text, "html": html, "attachments": files}
    except DatabaseError:
        raise  # the change cannot commit either
    except Exception as error:
        logger.exception("The %s message about %s could not be built", event, about)
        fields |= {"status": Status.FAILED, "last_error": _reason(error)}
    with transaction.atomic():
        if isinstance(recipient, User):
            to: dict[str, object] = {"recipient": recipient}
        else:
            to = {"recipient": None, "address": recipient.email}
            fields["name"] = recipient.name
        notification, created = Notification.objects.get_or_create(
            event=event, about=about, **to, defaults=fields
        )
        if not created:
            return None
        if notification.status == Status.PENDING:
            # With the database task backend the task is a row too, written in this transaction.
            deliver.enqueue(notification.pk)
    return notification


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"[:500]


@transaction.atomic
def notify_batched(
    *, event: str, recipient: User, window: timedelta, subject: str, template: str, context: dict[str, Any]
) -> None:
    """At most one message of `event` per `window` to `recipient`. The first goes at once; what
    happens within the window after it is told in one message sent when the window ends, rendered
    again on every call so that it tells of all of it."""
    User.objects.select_for_update().only("pk").get(pk=recipient.pk)  # one caller at a time per recipient
    last = Notification.objects.filter(event=event, recipient=recipient).order_by("-send_after").first()
    text, html = _render(recipient=recipient, template=template, context=context, optional="")
    # The one still waiting now tells of this too, unless a worker took it meanwhile (then a new
    # one is scheduled, as if it had been sent).
    if last is not None and Notification.objects.filter(pk=last.pk, status=Status.PENDING).update(
        subject=subject, text=text, html=html
    ):
        return
    now = timezone.now()
    send_after = now if last is None else max(now, last.send_after + window)
    notification = Notification.objects.create(
        event=event,
        recipient=recipient,
        about=f"{event}:{send_after.isoformat()}",
        subject=subject,
        text=text,
        html=html,
        send_after=send_after,
    )
    deliver.using(run_after=send_after).enqueue(notification.pk)


def notify_admins(*, event: str, subject: str, template: str, context: dict[str, Any]) -> None:
    """Tells every admin of what waits for them (booking requests, support messages): at most one
    message of `event` each per NOTIFY_ADMIN_MINUTES (notify_batched)."""
    window = timedelta(minutes=settings.NOTIFY_ADMIN_MINUTES)
    for admin in User.objects.filter(role=User.Role.ADMIN).order_by("pk"):
        notify_batched(
            event=event, recipient=admin, window=window, subject=subject, template=template, context=context
        )


def preferences_get(*, user: User) -> Preferences:
    return Preferences.objects.get_or_create(user=user)[0]


def unsubscribe(*, token: str) -> str | None:
    """Turns off the optional messages the token was made for, and answers which; None when the
    token is not ours, or older than NOTIFY_UNSUBSCRIBE_DAYS."""
    try:
        data = signing.loads(
            token, salt=UNSUBSCRIBE_SALT, max_age=timedelta(days=settings.NOTIFY_UNSUBSCRIBE_DAYS)
        )
        user = User.objects.get(pk=data["user"])
    except (signing.BadSignature, User.DoesNotExist, KeyError, TypeError):
        return None
    optional: str | None = data.get("optional")
    if optional not in Preferences.OPTIONAL:
        return None
    Preferences.objects.update_or_create(user=user, defaults={optional: False})
    return optional


class _UnfoldedHeader(str):
    """A header written on one line: folded to 78 columns, a link (one long word) would become an
    RFC 2047 encoded word, which mail clients do not read as a link (RFC 5322 allows 998). The e-mail
    package takes a value with a `name` and a `fold` as a header object (email.policy.EmailPolicy)."""

    name: str

    def __new__(cls, name: str, value: str) -> Self:
        header = super().__new__(cls, value)
        header.name = name
        return header

    def fold(self, *, policy: Policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


def _email(notification: Notification) -> EmailMultiAlternatives:
    headers = {"Message-ID": f"<notification-{notification.pk}@{settings.MAIL_DOMAIN}>"}
    if notification.optional and notification.recipient:  # a visitor's are never optional
        link = _unsubscribe_url(user=notification.recipient, optional=notification.optional)
        headers["List-Unsubscribe"] = _UnfoldedHeader("List-Unsubscribe", f"<{link}>")
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
    message = EmailMultiAlternatives(
        subject=notification.subject,
        body=notification.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[notification.to],
        headers=headers,
    )
    message.attach_alternative(notification.html, "text/html")
    for attachment in notification.attachments:
        message.attach(attachment["filename"], attachment["content"], attachment["content_type"])
    return message


def notification_deliver(*, notification_id: int) -> str:
    """Sends one recorded message, once: the claim (pending → sending) is committed before the mail
    server is called. One the server does not take is tried again later; one that cannot be made at
    all (a header that would break lines) is failed and never tried again."""
    now = timezone.now()
    claimed = Notification.move_where(
        Status.SENDING, Q(pk=notification_id, send_after__lte=now), claimed_at=now, attempts=F("attempts") + 1
    )
    if not claimed:
        return Notification.objects.get(pk=notification_id).status
    notification = Notification.objects.select_related("recipient").get(pk=notification_id)
    turned_off = {"user": notification.recipient, notification.optional: False}
    if notification.optional and Preferences.objects.filter(**turned_off).exists():
        return _finish(notification, Status.SKIPPED)
    try:
        _email(notification).send()
    except (smtplib.SMTPException, OSError) as error:
        send_after = timezone.now() + retry_delay(notification.attempts)
        with transaction.atomic():
            Notification.move_where(
                Status.PENDING, Q(pk=notification.pk), send_after=send_after, last_error=_reason(error)
            )
            deliver.using(run_after=send_after).enqueue(notification.pk)
        return Status.PENDING
    except Exception as error:  # a message that cannot be made would fail the same way again
        logger.exception("Message %s cannot be sent", notification.pk)
        return _finish(notification, Status.FAILED, error=_reason(error))
    return _finish(notification, Status.SENT)


def _finish(notification: Notification, status: Status, *, error: str = "") -> Status:
    Notification.move_where(
        status, Q(pk=notification.pk), sent_at=None if error else timezone.now(), last_error=error
    )
    return status


@task
def deliver(notification_id: int) -> str:
    return notification_deliver(notification_id=notification_id)


def retry_delay(attempts: int) -> timedelta:
    return backoff(attempts, first_seconds=settings.NOTIFY_RETRY_SECONDS)


def notifications_requeue_stalled(*, now: datetime | None = None) -> int:
    """Queues again, NOTIFY_CLAIM_TIMEOUT_SECONDS on, the messages whose delivery was lost: claimed
    by a worker that never finished, or due and never claimed (their task failed while the database
    blinked). A message is sent once however often it is queued. Answers how many were queued."""
    now = now or timezone.now()
    timeout = now - timedelta(seconds=settings.NOTIFY_CLAIM_TIMEOUT_SECONDS)
    lost = Q(status=Status.SENDING, claimed_at__lt=timeout) | Q(status=Status.PENDING, send_after__lt=timeout)
    count = 0
    for pk in Notification.objects.filter(lost).values_list("pk", flat=True):
        with transaction.atomic():
            # A lost claim is given up (pending again); either way the message is due now.
            if Notification.move_where(Status.PENDING, lost, Q(pk=pk), send_after=now) or (
                Notification.objects.filter(lost, pk=pk).update(send_after=now)
            ):
                deliver.enqueue(pk)
                count += 1
    return count


@task
def requeue_stalled() -> int:
    return notifications_requeue_stalled()
