"""What the OpenAPI schema (drf-spectacular, /api/schema/) needs beyond what it reads from the
code: how callers authenticate, and the shapes of error answers."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers


class FirebaseBearerScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.FirebaseBearerAuthentication"
    name = "firebaseIdToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "Firebase ID token"}


class FirebaseSessionScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.FirebaseSessionAuthentication"
    name = "sessionCookie"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": settings.IDENTITY_COOKIE_NAME}


DETAIL = inline_serializer("Detail", {"detail": serializers.CharField()})

# The error answers every endpoint may give (club/api.py), to add to each operation's own.
FIELD_ERRORS = OpenApiResponse(OpenApiTypes.OBJECT, description="Bad input: a list of messages per field.")
NOT_SIGNED_IN = OpenApiResponse(DETAIL, description="Not signed in, or the credentials are not valid.")
FORBIDDEN = OpenApiResponse(DETAIL, description="Signed in, but not allowed.")
NOT_FOUND = OpenApiResponse(DETAIL, description="No such thing, or not one of yours.")
CONFLICT = OpenApiResponse(DETAIL, description="Not allowed in the current state (a slot taken, say).")
UNAVAILABLE = OpenApiResponse(DETAIL, description="An outside service (sign-in, payments) did not answer.")


def errors(*codes: int) -> dict:
    """The error responses of an operation, by status code."""
    known = {
        400: FIELD_ERRORS,
        401: NOT_SIGNED_IN,
        403: FORBIDDEN,
        404: NOT_FOUND,
        409: CONFLICT,
        503: UNAVAILABLE,
    }
    return {code: known[code] for code in codes}
