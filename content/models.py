from django.db import models


class ContactMessage(models.Model):
    """A message sent from the support page's contact form; staff read and answer them in admin."""

    name = models.CharField(max_length=100)
    email = models.EmailField()
    message = models.TextField(max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


class Coupon(models.Model):
    """A discount code members can use at checkout; active ones are shown on the home page."""

    code = models.CharField(max_length=40, unique=True, help_text="Saved trimmed and upper-case.")
    discount = models.PositiveSmallIntegerField(help_text="A whole percent, from 1 to 100.")
    description = models.CharField(max_length=200, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(discount__gte=1, discount__lte=100), name="coupon_discount_1_to_100"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.discount}%)"


class Announcement(models.Model):
    text = models.TextField(max_length=2000)
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
