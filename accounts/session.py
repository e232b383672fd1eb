"""Starting and ending a signed-in session: the Firebase session cookie on the response."""

from django.conf import settings
from django.middleware.csrf import rotate_token

from .identity import create_session_cookie, session_cookie_lifetime


def start_session(request, response, *, id_token: str) -> None:
    response.set_cookie(
        settings.IDENTITY_COOKIE_NAME,
        create_session_cookie(id_token),
        max_age=int(session_cookie_lifetime().total_seconds()),
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )
    rotate_token(request)  # a new CSRF token for the new identity, as Django's login() does


def end_session(response) -> None:
    response.delete_cookie(settings.IDENTITY_COOKIE_NAME, samesite="Lax")
