from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import reverse


def island_config(request: HttpRequest) -> dict[str, Any]:
    """The blob every island reads (frontend/src/lib/config.ts): the URLs are reversed here so that
    no island hard-codes one."""
    emulator = settings.FIREBASE_AUTH_EMULATOR_HOST
    urls = {
        "session": reverse("api-session"),
        "users": reverse("api-users"),
        "login": reverse("accounts:login"),
        "emailVerified": reverse("accounts:email-verified"),
    }
    if settings.LOCAL_MODE and settings.STRIPE_API_BASE:
        urls["localStripeConfirm"] = reverse("local-stripe-confirm")
    if settings.LOCAL_MODE and emulator:
        urls["localAuthLinks"] = reverse("local-auth-links")
    return {
        "csrfToken": get_token(request),
        "urls": urls,
        "firebase": {
            "apiKey": settings.FIREBASE_API_KEY,
            "authDomain": settings.FIREBASE_AUTH_DOMAIN,
            "projectId": settings.FIREBASE_PROJECT_ID,
            "emulatorUrl": f"http://{emulator}" if emulator else None,
        },
    }


def site(request: HttpRequest) -> dict[str, object]:
    """What every layout needs; the islands' config is built only when a page renders it."""
    return {
        "site_name": settings.SITE_NAME,
        "club_contact": settings.CLUB_CONTACT,
        "island_config": lambda: island_config(request),
    }
