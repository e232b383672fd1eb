"""What the JSON API answers when a service refuses: one place for every endpoint."""

from django.core.exceptions import ValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import Conflict


def exception_handler(error, context):
    """DRF's handler, plus the services' refusals: a ValidationError is a 400 with a message per
    field, a Conflict a 409, a PermissionError a 403."""
    if isinstance(error, ValidationError):
        fields = error.message_dict if hasattr(error, "error_dict") else {"detail": error.messages}
        return Response(fields, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(error, Conflict):
        return Response({"detail": str(error)}, status=status.HTTP_409_CONFLICT)
    if isinstance(error, PermissionError):
        return Response({"detail": str(error)}, status=status.HTTP_403_FORBIDDEN)
    return drf_exception_handler(error, context)
