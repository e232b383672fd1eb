"""The JSON API's parser, in a module of its own: DRF's settings import it as DRF's views load
(DEFAULT_PARSER_CLASSES), so it imports nothing that imports those views (kernel.api does)."""

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's parser, which lets Python's RecursionError through: JSON nested deeper than Python
    can decode (a few hundred kilobytes of brackets) is a bad body like any other."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError("JSON parse error - the JSON is nested too deeply.") from error
