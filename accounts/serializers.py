from django.urls import reverse
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from kernel.days import DateLabel, day, when
from kernel.text import validate_one_line

from .models import LEVEL_HIGHEST, LEVEL_LOWEST, User, validate_photo_url


class LevelField(serializers.DecimalField):
    """A level of play (User.level's scale), to one decimal."""

    def __init__(self, **kwargs):
        super().__init__(
            max_digits=2, decimal_places=1, min_value=LEVEL_LOWEST, max_value=LEVEL_HIGHEST, **kwargs
        )


class NormalisedEmailField(serializers.EmailField):
    """An e-mail address as the site stores and compares it: trimmed and in lower case."""

    def to_internal_value(self, data) -> str:
        return super().to_internal_value(data).lower()


class UserOutput(serializers.ModelSerializer):
    image = serializers.CharField(help_text="A picture's URL, or empty for the default picture.")
    createdAt = serializers.DateTimeField(source="created_at")
    createdAtLabel = DateLabel(when, source="created_at")
    lastLogin = serializers.DateTimeField(source="last_login", allow_null=True)
    lastLoginLabel = DateLabel(when, source="last_login", allow_null=True)
    memberSince = serializers.DateTimeField(source="member_since", allow_null=True)

    class Meta:
        model = User
        fields = [
            "id",
            "name",
            "email",
            "image",
            "role",
            "createdAt",
            "createdAtLabel",
            "lastLogin",
            "lastLoginLabel",
            "memberSince",
            "level",
        ]
        read_only_fields = fields


class AdminRoleInput(serializers.Serializer):
    admin = serializers.BooleanField(help_text="true: make them an admin; false: take it back.")


# What the next page says after a sign-in, chosen by the island's flow.
GREETINGS = {
    "login": "Login Successful!",
    "google-login": "Google Login Successful!",
    "register": "Registration successful!",
    "google-register": "Google sign-in successful!",
}


class SessionInput(serializers.Serializer):
    idToken = serializers.CharField(max_length=8192, trim_whitespace=True)
    greeting = serializers.ChoiceField(choices=list(GREETINGS), required=False)


class ProfileInput(serializers.Serializer):
    """What a person may write about themselves. Any other field (a role, say) is ignored."""

    name = serializers.CharField(max_length=150, allow_blank=True, validators=[validate_one_line])
    email = NormalisedEmailField(required=False)
    image = serializers.URLField(
        max_length=500, required=False, allow_blank=True, allow_null=True, validators=[validate_photo_url]
    )
    level = LevelField(
        required=False,
        allow_null=True,
        help_text="How well you play, as you judge it, from 1.0 to 7.0; null for none. Left out: kept.",
    )


class MemberOutput(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(
        source="member_since", allow_null=True, help_text="When they became a member."
    )
    createdAtLabel = DateLabel(day, source="member_since", allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["id", "name", "email", "createdAt", "createdAtLabel", "url"]

    def get_url(self, member: User) -> str:
        return reverse("api-member", args=[member.pk])


class UserListQuery(serializers.Serializer):
    search = serializers.CharField(
        required=False, allow_blank=True, max_length=254, help_text="Part of a name or e-mail, any case."
    )
    role = serializers.ChoiceField(choices=User.Role.choices, required=False, allow_blank=True)


class PeopleQuery(serializers.Serializer):
    search = serializers.CharField(min_length=2, max_length=150, help_text="Part of a name, any case.")


@extend_schema_serializer(component_name="Person")
class PersonOutput(serializers.Serializer):
    """Someone of the club as another person sees them: their name and the id to name them by."""

    id = serializers.UUIDField(source="public_id")
    name = serializers.CharField()
    level = LevelField(allow_null=True, help_text="Their own judgement of how well they play.")
