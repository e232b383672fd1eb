"""The links the Firebase Auth Emulator keeps instead of sending mail, so that a person trying the
site locally can verify their address."""

import requests
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
    host, project = settings.FIREBASE_AUTH_EMULATOR_HOST, settings.FIREBASE_PROJECT_ID
    response = requests.get(
        f"http://{host}/emulator/v1/projects/{project}/oobCodes", timeout=settings.PROVIDER_TIMEOUT
    )
    response.raise_for_status()
    links = [
        {
            "email": code["email"],
            "kind": KINDS.get(code["requestType"], code["requestType"]),
            "url": code["oobLink"],
        }
        for code in reversed(response.json().get("oobCodes", []))  # the newest first
    ]
    return render(request, "local/auth_links.html", {"links": links})
