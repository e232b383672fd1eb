"""How every endpoint of the JSON API reads bodies (its parser: kernel/parsers.py), and what it
answers when a service refuses."""

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.http import Http404
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import Conflict, Forbidden, ProviderUnavailable


def camel_case(name: str) -> str:
    """A model field's name as the API says it: season_starts_on is seasonStartsOn."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


class CamelCaseModelSerializer[M: Model](serializers.ModelSerializer[M]):
    """A ModelSerializer whose fields the API names in camelCase, each read and written as the
    model's field of the snake_case name."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = {}
        for name, field in super().get_fields().items():
            if camel_case(name) != name and field.source is None:
                field.source = name  # read and written as the model's field
            fields[camel_case(name)] = field
        return fields


class IdField(serializers.IntegerField):
    """A record's id sent in, at most the largest bigint: SQLite cannot even look up a larger one."""

    default_error_messages = {"max_value": "No record has an id this large."}

    def __init__(self, **kwargs: Any):
        super().__init__(min_value=1, max_value=2**63 - 1, **kwargs)


def valid(serializer: type[serializers.Serializer[Any]], data: Any, **options: Any) -> dict[str, Any]:
    """`data` as `serializer` reads it, or a 400 with a message per field."""
    checked = serializer(data=data, **options)
    checked.is_valid(raise_exception=True)
    validated: dict[str, Any] = checked.validated_data
    return validated


def exception_handler(error: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus the services' refusals: a ValidationError is a 400 with a message per
    field, a Forbidden a 403, a Conflict a 409, an unavailable provider a 503; a record not found
    is said in the club's words, not Django's ("No Coupon matches the given query."): on an admin
    page it is most often one another admin deleted a moment before."""
    if isinstance(error, Http404):
        error = NotFound("Not found: it may have been deleted meanwhile. Reload the page to see the latest.")
    if isinstance(error, ValidationError):
        fields = error.message_dict if hasattr(error, "error_dict") else {"detail": error.messages}
        return Response(fields, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(error, Forbidden):
        return Response({"detail": str(error)}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(error, Conflict):
        return Response({"detail": str(error)}, status=status.HTTP_409_CONFLICT)
    if isinstance(error, ProviderUnavailable):
        detail = f"The payment service is not answering. Please try again in a minute. ({error})"
        return Response({"detail": detail}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    return drf_exception_handler(error, context)
