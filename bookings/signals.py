"""What the bookings tell the apps built on them, which they cannot import."""

from django.dispatch import Signal

# A paid (confirmed) booking was cancelled; sent in the cancellation's transaction with `booking`,
# `by` (who cancelled) and `refund_percent` (the share of its payment the policy gives back).
# The payments app records the refund and queues it (payments.receivers).
paid_booking_cancelled = Signal()
