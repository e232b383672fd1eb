"""Bookings and what holds or waits for a court's slots. BookedSlot is not registered: a row changed
by hand would free or hold a slot behind the services' back."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from kernel.admin import ReadOnlyAdmin, ServiceAdmin
from kernel.errors import Conflict, Forbidden
from kernel.slots import slots_label

from .blocks import BlockConflicts, block_create, block_delete
from .forms import PolicyForm
from .models import Block, Booking, BookingStatusChange, CalendarFeed, Match, Player, Policy, WaitlistEntry
from .services import booking_approve, booking_cancel, booking_reject, calendar_feed_reset, policy_update


@admin.register(Policy)
class PolicyAdmin(ServiceAdmin):
    fields = tuple(PolicyForm.Meta.fields)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def update(self, request, obj, changes, formsets):
        policy_update(by=request.user, **changes)


class BlockAdminForm(forms.ModelForm):
    """A new block, made by block_create as the form is checked, so that its refusals show on it."""

    class Meta:
        model = Block
        fields = ["court", "date", "until", "slots", "reason"]
        help_texts = {"slots": 'A list of the court\'s slots, e.g. ["08:00-09:00", "09:00-10:00"].'}

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        slots = cleaned.get("slots")
        if not isinstance(slots, list) or not all(isinstance(slot, str) for slot in slots):
            self.add_error("slots", "A list of slots, each as in the court's list.")
            return cleaned
        try:
            self.instance = block_create(by=self.made_by, **cleaned)
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                self.add_error("court" if field == "courtId" else field, messages)
        except BlockConflicts as error:
            held = "; ".join(
                f"{booking.user.email}, {booking.date}, {booking.slots_label} ({booking.status})"
                for booking in error.bookings
            )
            raise ValidationError(
                f"{error} Cancel them or leave those slots out on the schedule page. Held by: {held}."
            ) from error
        except Conflict as error:
            raise ValidationError(str(error)) from error
        return cleaned


@admin.register(Block)
class BlockAdmin(ServiceAdmin):
    """A block over bookings is refused here (the schedule page offers more); none is ever edited."""

    form = BlockAdminForm
    list_display = ["court", "date", "until", "slots_label", "reason", "created_by", "created_at"]
    list_filter = ["court", "date"]
    search_fields = ["reason"]
    date_hierarchy = "date"

    @admin.display(description="Slots")
    def slots_label(self, block: Block) -> str:
        return slots_label(block.slots)

    def has_change_permission(self, request, obj=None):
        return False

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.made_by = request.user
        return form

    def create(self, request, form, formsets):
        return form.instance  # block_create made it when the form was checked

    def remove(self, request, obj):
        block_delete(block=obj, by=request.user)


@admin.register(WaitlistEntry)
class WaitlistEntryAdmin(ReadOnlyAdmin):
    list_display = ["user", "court", "date", "slot", "status", "created_at", "offer_expires_at"]
    list_filter = ["status", "date", "court"]
    search_fields = ["user__email", "court__name"]
    date_hierarchy = "date"
    list_select_related = ["user", "court"]
    ordering = ["-date", "slot", "created_at"]


@admin.register(CalendarFeed)
class CalendarFeedAdmin(ReadOnlyAdmin):
    """Whose calendar feeds exist, and an action to retire one's address; never the secret."""

    fields = ["user", "created_at"]
    list_display = ["user", "created_at"]
    search_fields = ["user__email"]
    date_hierarchy = "created_at"
    list_select_related = ["user"]
    actions = ["reset"]

    @admin.action(description="Retire the selected feeds' addresses (each person gets a new one)")
    def reset(self, request, queryset):
        for feed in queryset.select_related("user"):
            calendar_feed_reset(user=feed.user, by=request.user)
            messages.success(request, f"The calendar feed of {feed.user.email} has a new address.")


class StatusChangeInline(admin.TabularInline):
    """Read only, as its booking is: Django admin edits no inline of a record it may not change."""

    model = BookingStatusChange
    fields = readonly_fields = ("at", "from_status", "to_status", "by", "reason")


class PlayerInline(admin.TabularInline):
    """Who plays besides the organiser, read only: the organiser changes them on the booking's page
    (bookings/players.py), and each change is told to whoever it concerns."""

    model = Player
    fields = readonly_fields = ("kind", "status", "user", "email", "name", "created_at")


class MatchInline(admin.StackedInline):
    """The booking's open match, read only: its organiser opens, changes and closes it on the
    booking's page (bookings/matches.py)."""

    model = Match
    fields = readonly_fields = ("places", "level_min", "level_max", "deadline", "play_anyway", "created_at")


def _service_action(decide, done: str, description: str):
    """An action running the service `decide` on each selected booking, saying what became of each."""

    @admin.action(description=description)
    def act(modeladmin, request, queryset):
        for booking in queryset.select_related("court", "user"):
            try:
                decide(booking=booking, by=request.user)
            except (Conflict, Forbidden) as refusal:
                messages.error(request, f"Booking #{booking.pk}: {refusal}")
            else:
                messages.success(request, f"Booking #{booking.pk} {done}.")

    return act


@admin.register(Booking)
class BookingAdmin(ReadOnlyAdmin):
    """Bookings, to read and to fix through their services only: approve, reject and cancel."""

    list_display = ["pk", "court_name", "date", "slots_label", "user", "status", "price", "created_at"]
    list_filter = ["status", "date", "court"]
    search_fields = ["user__email", "court_name"]
    date_hierarchy = "date"
    list_select_related = ["user"]
    inlines = [PlayerInline, MatchInline, StatusChangeInline]
    actions = ["approve", "reject", "cancel"]
    approve = _service_action(booking_approve, "approved", "Approve the selected pending bookings")
    reject = _service_action(booking_reject, "rejected", "Reject the selected pending bookings")
    cancel = _service_action(
        booking_cancel, "cancelled", "Cancel the selected bookings (paid ones refunded in full)"
    )
