"""Request bodies read as strictly as the schema describes them (issue 27).

DRF's fields are lenient about JSON types: a ``CharField`` takes ``0`` as ``"0"``, a ``BooleanField``
takes ``0``, ``"yes"`` or ``"on"``, an ``IntegerField`` takes ``"7"`` and ``7.0``. The schema says
``string``, ``boolean`` and ``integer``, so a client generated from it, and a client that sends
``{"text": 0}`` by mistake, should be told the same thing: every body serializer is a
``BodySerializer``, which refuses a value of the wrong JSON type with a 400 before DRF converts it,
in DRF's own (translated) words for that field.

Requests that have the right shape but cannot be carried out for what they say (a move the rules
refuse, an absence in the past, a host that does not resolve) are not this module's: they answer
422 (``UnprocessableInput`` here, ``play.errors.Unprocessable`` from a service), so that 400 always
means "the request breaks the schema".
"""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework import exceptions, serializers, status

from games import engines

# DRF's own words (its catalogs translate them): "A valid integer is required."
_WHOLE_NUMBER = serializers.IntegerField.default_error_messages["invalid"]


class UnprocessableInput(exceptions.ValidationError):
    """A request of the right shape that cannot be carried out for what it says: 422, in the error shape."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY


def _type_error(field: serializers.Field, value) -> list | dict | None:
    """Return the errors for ``value`` if it is not of the JSON type ``field`` reads, else None."""
    if value is None or field.read_only:
        return None  # null: the field's own allow_null decides
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else [field.error_messages["invalid"]]
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else [_WHOLE_NUMBER]
    if isinstance(field, (serializers.FloatField, serializers.DecimalField)):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok else [field.error_messages["invalid"]]
    if isinstance(field, (serializers.CharField, serializers.DateField, serializers.DateTimeField)):
        return None if isinstance(value, str) else [serializers.CharField.default_error_messages["invalid"]]
    if isinstance(field, serializers.MultipleChoiceField):
        if not isinstance(value, list):
            return None  # DRF's own "Expected a list" follows
        errors = {index: [field.error_messages["invalid_choice"].format(input=item)]
                  for index, item in enumerate(value) if not isinstance(item, str)}
        return errors or None
    if isinstance(field, serializers.ChoiceField):
        kinds = {type(key) for key in field.choices}
        fits = (isinstance(value, str) if kinds == {str} else
                isinstance(value, int) and not isinstance(value, bool) if kinds == {int} else True)
        return None if fits else [field.error_messages["invalid_choice"].format(input=value)]
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return None  # DRF's own "Expected a list" follows
        errors = {index: error for index, item in enumerate(value)
                  if (error := _type_error(field.child, item)) is not None}
        return errors or None
    if isinstance(field, serializers.DictField) and isinstance(value, Mapping):
        errors = {key: error for key, item in value.items() if (error := _type_error(field.child, item)) is not None}
        return errors or None
    return None


# A request body's serializer: each value must be of its field's JSON type (nested bodies too). No docstring:
# drf-spectacular would describe every body that has none of its own with it.
class BodySerializer(serializers.Serializer):

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            errors = {}
            for field in self._writable_fields:
                if field.field_name in data:
                    error = _type_error(field, data[field.field_name])
                    if error is not None:
                        errors[field.field_name] = error
            if errors:
                raise exceptions.ValidationError(errors)
        return super().to_internal_value(data)


# The most seats any game has: a seat's number in a request is 0 to one less (the game at hand may have fewer).
MOST_SEATS = max(engine.max_players for engine in engines().values())


def game_slugs() -> list[tuple[str, str]]:
    """Return the engine slugs as choices (the ``GameSlug`` enum of the schema)."""
    return [(slug, slug) for slug in engines()]
