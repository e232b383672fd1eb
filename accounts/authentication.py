"""How the JSON API knows its caller: the Firebase session cookie (with CSRF, like Django's own
session authentication), or an `Authorization: Bearer <Firebase ID token>` header."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from .identity import EmailNotAccepted, IdentityProviderUnavailable, InvalidCredential, verify_id_token
from .services import EmailNotVerified, user_from_identity


class IdentityUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = "Sign-in cannot be checked right now. Please try again in a minute."
    default_code = "identity_unavailable"


class FirebaseBearerAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("The Authorization header must be 'Bearer <ID token>'.")
        try:
            identity = verify_id_token(header[1].decode("ascii", errors="replace"))
            user = user_from_identity(identity)
        except (EmailNotAccepted, EmailNotVerified) as error:
            raise exceptions.AuthenticationFailed(str(error)) from error
        except InvalidCredential as error:
            raise exceptions.AuthenticationFailed("The ID token is not valid.") from error
        except IdentityProviderUnavailable as error:
            raise IdentityUnavailable() from error
        if not user.is_active:
            raise exceptions.AuthenticationFailed("This account is disabled.")
        request._request.identity = identity
        return user, None

    def authenticate_header(self, request):
        # Makes DRF answer 401 (not 403) to a caller who is not signed in.
        return self.keyword


class FirebaseSessionAuthentication(authentication.SessionAuthentication):
    """The user the middleware found from the session cookie, with Django's CSRF check."""

    def authenticate(self, request):
        django_request = request._request
        user = django_request.user  # verifies the cookie, once per request
        if not user.is_authenticated:
            if getattr(django_request, "identity_unavailable", False):
                raise IdentityUnavailable()
            return None
        self.enforce_csrf(request)
        return user, None


# How the OpenAPI schema names the two ways to authenticate.
class FirebaseBearerScheme(OpenApiAuthenticationExtension):
    target_class = FirebaseBearerAuthentication
    name = "firebaseIdToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "Firebase ID token"}


class FirebaseSessionScheme(OpenApiAuthenticationExtension):
    target_class = FirebaseSessionAuthentication
    name = "sessionCookie"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": settings.IDENTITY_COOKIE_NAME}
