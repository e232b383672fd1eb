"""Local mode only: the e-mails the Firebase Auth Emulator would have sent.

The emulator sends no mail; it keeps each verification and password-reset link, and opening one
applies it. This page lists them, so a person trying the site locally can verify their address.
club/urls.py routes it only in local mode with the emulator: production never serves it.
"""

import json
import urllib.request

from django.conf import settings
from django.shortcuts import render

KINDS = {
    "VERIFY_EMAIL": "Verify e-mail",
    "PASSWORD_RESET": "Reset password",
    "EMAIL_SIGNIN": "Sign in",
    "RECOVER_EMAIL": "Undo an e-mail change",
    "VERIFY_AND_CHANGE_EMAIL": "Confirm a new e-mail",
}


def auth_links(request):
    url = (
        f"http://{settings.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/"
        f"{settings.FIREBASE_PROJECT_ID}/oobCodes"
    )
    with urllib.request.urlopen(url, timeout=settings.PROVIDER_TIMEOUT) as response:
        codes = json.load(response).get("oobCodes", [])
    links = [
        {
            "email": code["email"],
            "kind": KINDS.get(code["requestType"], code["requestType"]),
            "url": code["oobLink"],
        }
        for code in reversed(codes)  # the newest first
    ]
    return render(request, "accounts/local_auth_links.html", {"links": links})
