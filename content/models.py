from datetime import date

from django.db import models

from club.text import validate_lines, validate_one_line

DISCOUNT_RULE = "The discount is a whole percent from 1 to 100."
MAX_USES_RULE = "A coupon is used at least once: leave this empty for no limit."


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


class Coupon(models.Model):
    """A discount code members can use at checkout; active ones are shown on the home page.
    The limits are optional: each one left empty (or unticked) does not apply."""

    code = models.CharField(
        max_length=40, unique=True, validators=[validate_one_line], help_text="Saved trimmed and upper-case."
    )
    discount = models.PositiveSmallIntegerField(help_text="A whole percent, from 1 to 100.")
    description = models.CharField(max_length=200, blank=True, validators=[validate_one_line])
    is_active = models.BooleanField(default=True)
    once_per_person = models.BooleanField(
        default=False, help_text="Each person may pay with it once (a refunded payment does not count)."
    )
    max_uses = models.PositiveIntegerField(
        null=True, blank=True, help_text="How many payments it may take in all; empty for no limit."
    )
    valid_from = models.DateField(null=True, blank=True, help_text="The first day it is accepted.")
    valid_until = models.DateField(null=True, blank=True, help_text="The last day it is accepted.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(discount__gte=1, discount__lte=100),
                name="coupon_discount_1_to_100",
                violation_error_message=DISCOUNT_RULE,
            ),
            models.CheckConstraint(
                condition=models.Q(max_uses__isnull=True) | models.Q(max_uses__gte=1),
                name="coupon_max_uses_at_least_1",
                violation_error_message=MAX_USES_RULE,
            ),
            models.CheckConstraint(
                condition=models.Q(valid_from__isnull=True)
                | models.Q(valid_until__isnull=True)
                | models.Q(valid_until__gte=models.F("valid_from")),
                name="coupon_valid_until_on_or_after_valid_from",
                violation_error_message="The last day comes on or after the first.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.discount}%)"

    @staticmethod
    def not_on_offer(code: str) -> str:
        """The refusal of a code that is no coupon, or is one not on offer: one and the same."""
        return f"There is no coupon {code} on offer now."

    def refusal(self, *, today: date, uses: int, uses_by_person: int) -> str:
        """Why the coupon cannot be used on `today` by a person who has paid with it
        `uses_by_person` times, when everyone has `uses` times; "" when it can. Uses are payments
        that succeeded: a refunded one gave its discount back. Withdrawn, not yet or no longer
        valid, or used up, it is refused as a code that is no coupon (not_on_offer), so that
        trying codes tells nobody of the club's hidden or coming ones; only the person's own use
        of a once-per-person coupon is said."""
        withdrawn = not self.is_active
        out_of_dates = (self.valid_from and today < self.valid_from) or (
            self.valid_until and today > self.valid_until
        )
        used_up = self.max_uses is not None and uses >= self.max_uses
        if withdrawn or out_of_dates or used_up:
            return self.not_on_offer(self.code)
        if self.once_per_person and uses_by_person:
            return f"The coupon {self.code} is once per person, and you have used it already."
        return ""


class Announcement(models.Model):
    text = models.TextField(max_length=2000, validators=[validate_lines])
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
