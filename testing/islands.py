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


def props_by_island(html: str) -> dict[str, dict]:
    """The props the page rendered for each of its islands, by the island's name (the last, for an
    island mounted more than once)."""
    found = {}
    for name, props_id in re.findall(r'data-island="([^"]+)" data-props-id="([^"]+)"', html):
        script = re.search(rf'<script id="{props_id}" type="application/json">(.*?)</script>', html, re.S)
        if script is not None:
            found[name] = json.loads(script.group(1))
    return found
