"""The bounds a form's inputs carry (required, min, max, step, maxlength), read from the fields that
enforce them: a browser's input and the server's refusal then say the same, and a bound is written
once, on the model (or the serializer) that holds it."""

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from rest_framework import serializers

# The bounds of a booking limit, the same whether the club's rules (bookings.Policy) or a membership
# plan's benefits (memberships.Plan) set it: a year ahead at most, and a day's or a week's hours.
DAYS_AHEAD = [MaxValueValidator(365)]
BOOKINGS_AT_ONCE = [MinValueValidator(1), MaxValueValidator(100)]
HOURS_A_DAY = [MinValueValidator(1), MaxValueValidator(24)]
HOURS_A_WEEK = [MinValueValidator(1), MaxValueValidator(168)]


def value_limits(validators: Iterable[Any]) -> dict[str, Any]:
    """The tightest `min_value` and `max_value` of `validators`, as form and serializer fields take
    them (none for a field without such validators)."""
    validators = list(validators)
    lows = [v.limit_value for v in validators if isinstance(v, MinValueValidator)]
    highs = [v.limit_value for v in validators if isinstance(v, MaxValueValidator)]
    return {
        **({"min_value": max(lows)} if lows else {}),
        **({"max_value": min(highs)} if highs else {}),
    }


def model_bounds(model: type[models.Model], name: str) -> dict[str, Any]:
    """The bounds of field `name` of `model` (its validators' `min_value` and `max_value`, its
    `max_length`), as keyword arguments of a serializer field declared for it."""
    field = model._meta.get_field(name)
    validators = getattr(field, "validators", [])
    length = getattr(field, "max_length", None)
    return value_limits(validators) | ({"max_length": length} if length is not None else {})


def bounded_formfield(db_field: models.Field[Any, Any], **kwargs: Any) -> Any:
    """A ModelForm's `formfield_callback`: the model field's form field, given the bounds of the
    model's validators, which a number input renders as min and max. Django itself passes a form
    field the column's range only (min 0 for a positive integer, no max)."""
    return db_field.formfield(**value_limits(db_field.validators), **kwargs)


def _number(value: Decimal | int | float) -> str:
    return format(value, "f") if isinstance(value, Decimal) else str(value)


def input_bounds(serializer: serializers.Serializer[Any]) -> dict[str, dict[str, Any]]:
    """What each writable field of `serializer` accepts, by the field's name in the API (the name its
    400's messages come under), as an island's inputs take it: `required`, and where the field has
    them `min`, `max`, `step` (a number's smallest change) and `maxLength`."""
    bounds = {}
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        accepts: dict[str, Any] = {"required": field.required}
        for bound, attribute in (("min", "min_value"), ("max", "max_value")):
            if getattr(field, attribute, None) is not None:
                accepts[bound] = _number(getattr(field, attribute))
        if isinstance(field, serializers.DecimalField) and field.decimal_places is not None:
            accepts["step"] = _number(Decimal(1).scaleb(-field.decimal_places))
        elif isinstance(field, serializers.IntegerField):
            accepts["step"] = "1"
        if isinstance(field, serializers.CharField) and field.max_length is not None:
            accepts["maxLength"] = field.max_length
        bounds[name] = accepts
    return bounds
