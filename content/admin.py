from django.contrib import admin

from audit.admin import AuditedAdmin
from kernel.admin import ServiceAdmin

from .models import Announcement, ContactMessage, ContactReply, NewsletterSubscription
from .services import announcement_create, announcement_delete, announcement_update


class ContactReplyInline(admin.TabularInline):
    model = ContactReply
    fields = ["created_at", "by", "text"]
    readonly_fields = ["created_at", "by", "text"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # replies are sent from the Support Inbox, which e-mails them


@admin.register(ContactMessage)
class ContactMessageAdmin(AuditedAdmin):
    """The support page's messages (answered from the Support Inbox); one may be deleted (spam)."""

    list_display = ["name", "email", "message", "created_at", "handled_at", "handled_by"]
    list_filter = [("handled_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "email", "message"]
    readonly_fields = ["name", "email", "message", "created_at", "handled_at", "handled_by"]
    list_select_related = ["handled_by"]
    date_hierarchy = "created_at"
    inlines = [ContactReplyInline]

    def has_add_permission(self, request):
        return False  # people write them on the support page


@admin.register(Announcement)
class AnnouncementAdmin(ServiceAdmin):
    """Through the services, as on Make Announcements: a new one is e-mailed, each change audited."""

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
