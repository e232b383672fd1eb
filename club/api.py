"""What the JSON API answers when a service refuses: one place for every endpoint."""

from django.core.exceptions import ValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import Conflict, ProviderUnavailable


def exception_handler(error, context):
    """DRF's handler, plus the services' refusals: a ValidationError is a 400 with a message per
    field, a Conflict a 409, an unavailable provider a 503, a PermissionError a 403."""
    if isinstance(error, ValidationError):
        fields = error.message_dict if hasattr(error, "error_dict") else {"detail": error.messages}
        return Response(fields, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(error, Conflict):
        return Response({"detail": str(error)}, status=status.HTTP_409_CONFLICT)
    if isinstance(error, ProviderUnavailable):
        detail = f"The payment service is not answering. Please try again in a minute. ({error})"
        return Response({"detail": detail}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    if isinstance(error, PermissionError):
        return Response({"detail": str(error)}, status=status.HTTP_403_FORBIDDEN)
    return drf_exception_handler(error, context)
