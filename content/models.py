from django.conf import settings
from django.db import models

from kernel.text import validate_lines, validate_one_line


class ContactMessage(models.Model):
    """A message sent from the support page's contact form; the admins read it, reply to it by
    e-mail and mark it handled in the support inbox."""

    name = models.CharField(max_length=100, validators=[validate_one_line])
    email = models.EmailField()
    message = models.TextField(max_length=5000, validators=[validate_lines])
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


class ContactReply(models.Model):
    """What an admin wrote back to a support message, e-mailed to its sender."""

    message = models.ForeignKey(ContactMessage, on_delete=models.CASCADE, related_name="replies")
    text = models.TextField(
        max_length=5000, validators=[validate_lines], error_messages={"blank": "Please write your reply."}
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "contact replies"

    def __str__(self) -> str:
        return f"Reply to {self.message}"


class Announcement(models.Model):
    text = models.TextField(
        max_length=2000,
        validators=[validate_lines],
        error_messages={"blank": "Please write the announcement."},
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.text[:60]


class NewsletterSubscription(models.Model):
    email = models.EmailField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.email
