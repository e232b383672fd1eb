from django.contrib import admin, messages

from club.admin import ReadOnlyAdmin
from club.errors import Conflict

from . import gateway
from .models import Payment, Refund
from .services import refund_retry


@admin.register(Refund)
class RefundAdmin(ReadOnlyAdmin):
    """Refunds, for reading; a failed one is tried again with the action (the service decides)."""

    list_display = ["created_at", "payment", "amount", "status", "attempts", "error", "refunded_at"]
    list_filter = ["status"]
    search_fields = ["payment__user__email", "stripe_refund_id", "reason"]
    date_hierarchy = "created_at"
    list_select_related = ["payment"]
    actions = ["retry"]

    @admin.action(description="Retry the selected failed refunds")
    def retry(self, request, queryset):
        for refund in queryset.filter(status=Refund.Status.FAILED):
            try:
                refund_retry(refund=refund, by=request.user)
            except (Conflict, gateway.PaymentProviderUnavailable) as error:
                self.message_user(request, f"{refund}: {error}", messages.ERROR)
            else:
                self.message_user(request, f"{refund}: sent.", messages.SUCCESS)


class RefundInline(admin.TabularInline):
    """A payment's refunds, to read (a failed one is retried from Refunds)."""

    model = Refund
    fields = ["amount", "status", "reason", "attempts", "error", "created_at", "refunded_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    """Payments, to read: amounts, statuses and Stripe's ids are Stripe's word and never edited
    here; refunds come from cancelling the booking (Bookings) and are retried from Refunds."""

    list_display = ["pk", "booking", "user", "amount", "coupon", "status", "card_last4", "paid_at"]
    list_filter = ["status", "coupon"]
    search_fields = ["user__email", "payment_intent_id"]
    date_hierarchy = "created_at"
    list_select_related = ["booking__user", "user", "coupon"]  # a booking names its owner
    inlines = [RefundInline]
