"""Starting and ending a signed-in session: the Firebase session cookie on the response."""

from django.conf import settings
from django.middleware.csrf import rotate_token
from django.utils import timezone

from .identity import create_session_cookie, session_cookie_lifetime
from .services import session_end


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


def end_session(request, response) -> None:
    """The browser drops the cookie, and the site refuses it should a copy come back."""
    if cookie := request.COOKIES.get(settings.IDENTITY_COOKIE_NAME):
        # No cookie lives longer than a session, whenever it was made.
        session_end(cookie=cookie, valid_until=timezone.now() + session_cookie_lifetime())
    response.delete_cookie(settings.IDENTITY_COOKIE_NAME, samesite="Lax")
