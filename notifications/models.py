from django.conf import settings
from django.db import models
from django.utils import timezone

from kernel.states import StatusMachine


class Notification(StatusMachine):
    """One e-mail to one person about one thing, recorded before it is sent. The unique (event,
    recipient, about) makes it arrive once, however often the event is raised again (a retried task,
    a replayed Stripe webhook)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not sent (turned off by its recipient)"
        FAILED = "failed", "Not sent (it could not be made: see its error)"

    # A claim lost with its worker, or a message the server did not take, is pending again.
    TRANSITIONS = {
        Status.PENDING: {Status.SENDING},
        Status.SENDING: {Status.SENT, Status.SKIPPED, Status.FAILED, Status.PENDING},
    }

    event = models.CharField(max_length=40)
    # A person of the club, or, for someone without an account (a visitor who wrote to the club),
    # an address and the name they gave.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    address = models.EmailField(blank=True)
    name = models.CharField(max_length=100, blank=True)
    about = models.CharField(max_length=80, help_text="What it is about, e.g. booking:12.")
    # Which preference turns it off ("" for the messages everyone gets).
    optional = models.CharField(max_length=20, blank=True)
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField()
    attachments = models.JSONField(default=list, blank=True, help_text="[{filename, content_type, content}]")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    send_after = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "recipient", "about"], name="notification_once"),
            models.UniqueConstraint(
                fields=["event", "address", "about"],
                condition=models.Q(recipient__isnull=True),
                name="notification_to_an_address_once",
            ),
            models.CheckConstraint(
                condition=models.Q(recipient__isnull=True) ^ models.Q(address=""),
                name="notification_to_a_person_or_an_address",
            ),
        ]
        # The worker's sweep: what waits, or was claimed and never finished.
        indexes = [models.Index(fields=["status", "send_after"], name="notification_due")]

    def __str__(self) -> str:
        return f"{self.event} to {self.recipient or self.address} ({self.about}): {self.get_status_display()}"

    @property
    def to(self) -> str:
        return self.recipient.email if self.recipient else self.address


class Preferences(models.Model):
    """Which optional messages a person gets; everyone gets the ones about their own bookings."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="notification_preferences",
    )
    reminders = models.BooleanField(
        default=True, help_text="Reminders before a payment is due and the day before a booking."
    )
    announcements = models.BooleanField(default=True, help_text="The club's new announcements.")

    OPTIONAL = ("reminders", "announcements")

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"Notification preferences of {self.user}"
