from rest_framework import serializers

from .models import User


class UserOutput(serializers.ModelSerializer):
    image = serializers.CharField(help_text="A picture's URL, or empty for the default picture.")
    createdAt = serializers.DateTimeField(source="created_at")
    lastLogin = serializers.DateTimeField(source="last_login", allow_null=True)
    memberSince = serializers.DateTimeField(source="member_since", allow_null=True)

    class Meta:
        model = User
        fields = ["id", "name", "email", "image", "role", "createdAt", "lastLogin", "memberSince"]
        read_only_fields = fields


# What the next page says after a sign-in (spec §8), chosen by the island's flow.
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

    name = serializers.CharField(max_length=150, allow_blank=True, trim_whitespace=True)
    email = serializers.EmailField(required=False)
    image = serializers.URLField(max_length=500, required=False, allow_blank=True, allow_null=True)
