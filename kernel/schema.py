"""The shapes of the error answers in the OpenAPI schema (drf-spectacular, /api/schema/), which it
cannot read from the code."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

DETAIL = inline_serializer("Detail", {"detail": serializers.CharField()})

# The error answers every endpoint may give (kernel/api.py), to add to each operation's own.
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
