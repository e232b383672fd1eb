from django import forms
from django.contrib import admin

from club.admin import AuditedAdmin, ServiceAdmin

from .models import Announcement, ContactMessage, Coupon, NewsletterSubscription
from .services import (
    COUPON_AUDITED,
    announcement_create,
    announcement_delete,
    announcement_update,
    coupon_create,
    coupon_delete,
    coupon_update,
    normalised_code,
)


@admin.register(ContactMessage)
class ContactMessageAdmin(AuditedAdmin):
    """The support page's messages, to read and answer by e-mail; one may be deleted (spam)."""

    list_display = ["name", "email", "created_at"]
    search_fields = ["name", "email", "message"]
    readonly_fields = ["name", "email", "message", "created_at"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False  # people write them on the support page


class CouponForm(forms.ModelForm):
    class Meta:
        model = Coupon
        fields = COUPON_AUDITED

    def clean_code(self) -> str:
        # As the service saves it, so that the form's unique check sees "spring" as "SPRING".
        return normalised_code(self.cleaned_data["code"])


@admin.register(Coupon)
class CouponAdmin(ServiceAdmin):
    """Coupons are saved through the coupons' services (content.services), as on Manage Coupons:
    the same rules, and the same audit entries."""

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


@admin.register(Announcement)
class AnnouncementAdmin(ServiceAdmin):
    """Announcements are posted through their services, as on Make Announcements: a new one is
    e-mailed to those who want announcements, and each change is audited."""

    fields = ["text"]
    list_display = ["text", "created_at", "updated_at"]
    search_fields = ["text"]
    date_hierarchy = "created_at"

    def create(self, request, form, formsets):
        return announcement_create(by=request.user, text=form.cleaned_data["text"])

    def update(self, request, obj, changes, formsets):
        announcement_update(announcement=obj, by=request.user, **changes)

    def remove(self, request, obj):
        announcement_delete(announcement=obj, by=request.user)


@admin.register(NewsletterSubscription)
class NewsletterSubscriptionAdmin(AuditedAdmin):
    list_display = ["email", "created_at"]
    search_fields = ["email"]
    date_hierarchy = "created_at"
