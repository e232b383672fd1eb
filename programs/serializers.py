from django.urls import reverse
from rest_framework import serializers

from accounts.serializers import NormalisedEmailField
from bookings.blocks import CANCEL, REFUSE
from kernel.api import IdField

from .models import Program, Registration


class ProgramFieldsInput(serializers.Serializer):
    """A program's details that an admin may change after making it."""

    kind = serializers.ChoiceField(choices=Program.Kind.choices)
    title = serializers.CharField(max_length=100, allow_blank=True)
    description = serializers.CharField(max_length=2000, allow_blank=True, required=False)
    coachEmail = NormalisedEmailField(
        source="coach_email",
        required=False,
        allow_blank=True,
        help_text="A person of the club who coaches it.",
    )
    coachName = serializers.CharField(
        source="coach_name",
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="A coach from outside.",
    )
    capacity = serializers.IntegerField(min_value=1, max_value=500)
    price = serializers.DecimalField(max_digits=8, decimal_places=2, min_value=0)
    registrationOpensAt = serializers.DateTimeField(source="registration_opens_at")
    registrationClosesAt = serializers.DateTimeField(source="registration_closes_at")
    membersOnly = serializers.BooleanField(source="members_only", default=False)
    cancelCutoffHours = serializers.IntegerField(
        source="cancel_cutoff_hours", min_value=0, max_value=720, default=24
    )


class ProgramInput(ProgramFieldsInput):
    """A new program: its details, and the courts and slots it holds on its days."""

    courtIds = serializers.ListField(child=IdField(), source="court_ids", max_length=20)
    slots = serializers.ListField(child=serializers.CharField(max_length=11), allow_empty=True, max_length=48)
    firstDate = serializers.DateField(source="first_date", help_text="Its first (or only) day.")
    until = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="Weekly until this day; none for one day."
    )
    conflicts = serializers.ChoiceField(
        choices=[REFUSE, CANCEL],
        default=REFUSE,
        help_text="Bookings holding some of its slots: refuse (409, listed), or cancel them (refunded).",
    )


class ProgramOutput(serializers.ModelSerializer):
    kind = serializers.ChoiceField(choices=Program.Kind.choices)
    kindLabel = serializers.CharField(source="get_kind_display")
    coach = serializers.CharField(source="coach_shown", help_text="Its coach's name, as everyone sees it.")
    courts = serializers.SerializerMethodField()
    firstDate = serializers.DateField(source="first_date")
    dates = serializers.ListField(child=serializers.DateField(), help_text="Every day it runs.")
    slots = serializers.ListField(child=serializers.CharField())
    startsAt = serializers.DateTimeField(source="starts_at")
    registrationOpensAt = serializers.DateTimeField(source="registration_opens_at")
    registrationClosesAt = serializers.DateTimeField(source="registration_closes_at")
    membersOnly = serializers.BooleanField(source="members_only")
    cancelCutoffHours = serializers.IntegerField(source="cancel_cutoff_hours")
    placesLeft = serializers.IntegerField(source="places_left")
    url = serializers.SerializerMethodField()

    class Meta:
        model = Program
        fields = [
            "id",
            "kind",
            "kindLabel",
            "title",
            "description",
            "coach",
            "courts",
            "firstDate",
            "until",
            "dates",
            "slots",
            "startsAt",
            "capacity",
            "placesLeft",
            "price",
            "registrationOpensAt",
            "registrationClosesAt",
            "membersOnly",
            "cancelCutoffHours",
            "status",
            "url",
        ]

    def get_courts(self, program: Program) -> list[str]:
        return [block.court.label for block in program.blocks.all()]

    def get_url(self, program: Program) -> str:
        return reverse("programs:detail", args=[program.pk])


class RegistrationOutput(serializers.ModelSerializer):
    programId = serializers.IntegerField(source="program_id")
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    heldUntil = serializers.DateTimeField(source="held_until", allow_null=True)
    payUrl = serializers.SerializerMethodField(help_text="Where a place held for the person is paid.")

    class Meta:
        model = Registration
        fields = ["id", "programId", "status", "price", "heldUntil", "payUrl"]

    def get_payUrl(self, registration: Registration) -> str | None:
        held = registration.status == Registration.Status.HELD
        return reverse("payments:pay-registration", args=[registration.pk]) if held else None


class ParticipantOutput(serializers.Serializer):
    name = serializers.CharField(source="user.public_name")
    email = serializers.SerializerMethodField(help_text="For admins only (the coach sees none).")
    status = serializers.ChoiceField(choices=Registration.Status.choices)

    def get_email(self, registration: Registration) -> str | None:
        return registration.user.email if self.context.get("admin") else None


class MessageInput(serializers.Serializer):
    subject = serializers.CharField(max_length=150, allow_blank=True)
    message = serializers.CharField(max_length=5000, allow_blank=True)


class CancelInput(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
