"""The local Firebase Auth Emulator, as scripts/local_stack.py starts it: its request validators are
compiled when first used (firebase/compile-validators-on-first-use.cjs), and still refuse what the
Identity Toolkit API forbids, as Firebase does."""

import json
import urllib.error

import pytest


def test_a_request_the_api_forbids_is_refused_with_the_field_named(emulator):
    with pytest.raises(urllib.error.HTTPError) as refused:
        emulator._call(
            "POST",
            f"/identitytoolkit.googleapis.com/v1/accounts:lookup?key={emulator.API_KEY}",
            {"idToken": [1]},
        )

    assert refused.value.code == 400
    assert json.loads(refused.value.read())["error"]["message"] == (
        "Invalid JSON payload received. /idToken must be string"
    )
