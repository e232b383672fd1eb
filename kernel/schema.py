"""The error answers' shapes in the OpenAPI schema (/api/schema/), which drf-spectacular cannot read."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

DETAIL = inline_serializer("Detail", {"detail": serializers.CharField()})

# The error answers an endpoint may give (kernel/api.py), by status code.
_ERRORS = {
    400: OpenApiResponse(OpenApiTypes.OBJECT, description="Bad input: a list of messages per field."),
    401: OpenApiResponse(DETAIL, description="Not signed in, or the credentials are not valid."),
    403: OpenApiResponse(DETAIL, description="Signed in, but not allowed."),
    404: OpenApiResponse(DETAIL, description="No such thing, or not one of yours."),
    409: OpenApiResponse(DETAIL, description="Not allowed in the current state (a slot taken, say)."),
    503: OpenApiResponse(DETAIL, description="An outside service (sign-in, payments) did not answer."),
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error responses of an operation, to add to its own."""
    return {code: _ERRORS[code] for code in codes}
