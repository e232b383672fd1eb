from django import forms
from django.contrib import admin, messages

from kernel.admin import ReadOnlyAdmin, ServiceAdmin
from kernel.errors import Conflict

from . import gateway
from .coupons import COUPON_AUDITED, coupon_create, coupon_delete, coupon_update, normalised_code
from .models import Coupon, Payment, Refund
from .selectors import Kind
from .services import refund_retry


@admin.register(Refund)
class RefundAdmin(ReadOnlyAdmin):
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
    model = Refund
    # Read only, as its payment's page is (ReadOnlyAdmin): Django adds and deletes nothing there.
    fields = readonly_fields = (
        "amount",
        "status",
        "reason",
        "attempts",
        "error",
        "created_at",
        "refunded_at",
    )


class KindFilter(admin.SimpleListFilter):
    """Payments for bookings or for memberships."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [(Kind.BOOKING, "Bookings"), (Kind.MEMBERSHIP, "Memberships")]

    def queryset(self, request, queryset):
        if self.value() not in Kind.values:
            return queryset
        return queryset.filter(membership__isnull=self.value() == Kind.BOOKING)


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    """Payments, to read: amounts, statuses and Stripe's ids are Stripe's word."""

    list_display = ["pk", "paid_for", "user", "amount", "coupon", "status", "card_last4", "paid_at"]
    list_filter = [KindFilter, "status", "coupon"]
    search_fields = ["user__email", "payment_intent_id", "stripe_invoice_id"]
    date_hierarchy = "created_at"
    # A booking names its owner; a membership its plan and holder.
    list_select_related = ["booking__user", "membership__plan", "membership__user", "user", "coupon"]
    inlines = [RefundInline]

    @admin.display(description="For")
    def paid_for(self, payment: Payment) -> str:
        return str(payment.booking or payment.membership)


class CouponForm(forms.ModelForm):
    class Meta:
        model = Coupon
        fields = COUPON_AUDITED

    def clean_code(self) -> str:
        # As the service saves it, so that the form's unique check sees "spring" as "SPRING".
        return normalised_code(self.cleaned_data["code"])


@admin.register(Coupon)
class CouponAdmin(ServiceAdmin):
    """Coupons are saved through their services, as on Manage Coupons: the same rules and audit."""

    form = CouponForm
    list_display = [
        "code",
        "discount",
        "is_active",
        "once_per_person",
        "max_uses",
        "valid_from",
        "valid_until",
        "created_at",
    ]
    list_filter = ["is_active", "once_per_person"]
    search_fields = ["code", "description"]
    date_hierarchy = "created_at"

    def create(self, request, form, formsets):
        return coupon_create(by=request.user, **form.cleaned_data)

    def update(self, request, obj, changes, formsets):
        coupon_update(coupon=obj, by=request.user, **changes)

    def remove(self, request, obj):
        coupon_delete(coupon=obj, by=request.user)
