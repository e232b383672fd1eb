"""What a server-rendered page hands its island, read back in a test."""

import json
import re


def island_props(html: str) -> dict:
    """The props the page rendered for its (first) island, with json_script."""
    script = re.search(
        r'<script id="[^"]+" type="application/json">(.*?)</script>', html.split("data-props-id")[1], re.S
    )
    if script is None:
        raise ValueError("The page has no island.")
    return json.loads(script.group(1))
