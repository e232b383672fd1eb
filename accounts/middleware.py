from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.utils.functional import SimpleLazyObject

from kernel.errors import Conflict

from .guards import sign_in_unavailable
from .identity import IdentityProviderUnavailable, InvalidCredential, check_revocation, verify_session_cookie
from .services import EmailNotVerified, user_from_identity


def user_for_session_cookie(request):
    """The signed-in user of a request, from its Firebase session cookie, or AnonymousUser. A cookie
    that does not verify, or was signed out of, is dropped; one that cannot be verified now sets
    `request.identity_unavailable`, so that a page that needs a user can say why it can't show."""
    cookie = request.COOKIES.get(settings.IDENTITY_COOKIE_NAME)
    if not cookie:
        return AnonymousUser()
    try:
        identity = verify_session_cookie(cookie)
        user = user_from_identity(identity, session_cookie=cookie)
    except (InvalidCredential, EmailNotVerified, Conflict):
        request.identity_cookie_invalid = True
        return AnonymousUser()
    except IdentityProviderUnavailable:
        request.identity_unavailable = True
        return AnonymousUser()
    request.identity = identity
    return user if user.is_active else AnonymousUser()


class FirebaseAuthenticationMiddleware(AuthenticationMiddleware):
    """Sets `request.user` from the Firebase session cookie instead of Django's session; a subclass
    of Django's, which Django admin checks for."""

    def process_request(self, request):
        request.user = SimpleLazyObject(lambda: user_for_session_cookie(request))

    def process_view(self, request, view_func, view_args, view_kwargs):
        """A write in Django admin, a sensitive operation, has its sign-in checked with the provider now."""
        admin_write = (
            request.method not in ("GET", "HEAD", "OPTIONS", "TRACE")
            and request.resolver_match.namespace == "admin"
        )
        if not admin_write or not request.user.is_authenticated:  # Django admin asks them to sign in
            return None
        try:
            check_revocation(request.identity)
        except InvalidCredential:
            request.identity_cookie_invalid = True
            request.user = AnonymousUser()
        except IdentityProviderUnavailable:
            return sign_in_unavailable(request)
        return None

    def process_response(self, request, response):
        if getattr(request, "identity_cookie_invalid", False):
            response.delete_cookie(settings.IDENTITY_COOKIE_NAME, samesite="Lax")
        return response
