from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.utils.functional import SimpleLazyObject

from club.errors import Conflict

from .identity import IdentityProviderUnavailable, InvalidCredential, verify_session_cookie
from .services import EmailNotVerified, session_has_ended, user_from_identity


def user_for_session_cookie(request):
    """The signed-in user of a request, from its Firebase session cookie, or AnonymousUser.

    A cookie that does not verify, or that was signed out of, is dropped from the response (see
    the middleware). When the
    identity provider does not answer, the visitor is treated as signed out for this request and
    `request.identity_unavailable` is set, so a page that needs a user can say why it can't show.
    """
    cookie = request.COOKIES.get(settings.IDENTITY_COOKIE_NAME)
    if not cookie:
        return AnonymousUser()
    try:
        if session_has_ended(cookie):
            raise InvalidCredential("Signed out.")
        user = user_from_identity(verify_session_cookie(cookie))
    except (InvalidCredential, EmailNotVerified, Conflict):
        request.identity_cookie_invalid = True
        return AnonymousUser()
    except IdentityProviderUnavailable:
        request.identity_unavailable = True
        return AnonymousUser()
    return user if user.is_active else AnonymousUser()


class FirebaseAuthenticationMiddleware(AuthenticationMiddleware):
    """Sets `request.user` from the Firebase session cookie instead of Django's session.

    A subclass of Django's middleware, so Django admin (which checks for it) works unchanged.
    """

    def process_request(self, request):
        request.user = SimpleLazyObject(lambda: user_for_session_cookie(request))

    def process_response(self, request, response):
        if getattr(request, "identity_cookie_invalid", False):
            response.delete_cookie(settings.IDENTITY_COOKIE_NAME, samesite="Lax")
        return response
