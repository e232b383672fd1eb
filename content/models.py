from django.db import models

from kernel.text import validate_lines, validate_one_line


class ContactMessage(models.Model):
    """A message sent from the support page's contact form; staff read and answer them in admin."""

    name = models.CharField(max_length=100, validators=[validate_one_line])
    email = models.EmailField()
    message = models.TextField(max_length=5000, validators=[validate_lines])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


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
