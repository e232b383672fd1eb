from django.contrib import admin

from .models import Announcement, ContactMessage, Coupon, NewsletterSubscription


@admin.register(ContactMessage)
class ContactMessageAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "created_at"]
    search_fields = ["name", "email", "message"]
    readonly_fields = ["name", "email", "message", "created_at"]
    date_hierarchy = "created_at"


@admin.register(Coupon)
class CouponAdmin(admin.ModelAdmin):
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


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ["text", "created_at"]
    search_fields = ["text"]


@admin.register(NewsletterSubscription)
class NewsletterSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["email", "created_at"]
    search_fields = ["email"]
    date_hierarchy = "created_at"
