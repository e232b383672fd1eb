from django.contrib import messages
from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from kernel.api import valid
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.ratelimit import limit_per_key
from kernel.schema import errors

from .authentication import FirebaseSessionAuthentication, IdentityUnavailable
from .identity import EmailNotAccepted, IdentityProviderUnavailable, InvalidCredential, verify_id_token
from .permissions import IsAdmin, require_self
from .selectors import people_named, user_by_email
from .serializers import (
    GREETINGS,
    AdminRoleInput,
    PeopleQuery,
    PersonOutput,
    ProfileInput,
    SessionInput,
    UserOutput,
)
from .services import (
    EmailNotVerified,
    session_end,
    session_start,
    user_set_admin,
    user_sign_in,
    user_update_profile,
)


class SignInRefused(exceptions.APIException):
    status_code = status.HTTP_401_UNAUTHORIZED
    default_detail = "The sign-in could not be verified. Please sign in again."
    default_code = "sign_in_refused"


class SessionApi(APIView):
    """POST: trade a fresh Firebase ID token for the session cookie, limited per address and per
    account. DELETE: sign out, never limited."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "session"

    def get_throttles(self):
        # A sign-out refused on a shared computer would leave the next person signed in as the last.
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(request=SessionInput, responses={200: UserOutput, **errors(400, 401, 403, 409, 503)})
    def post(self, request):
        # No authentication yet, so DRF would skip the CSRF check: a forged request could sign a
        # visitor in as someone else (login CSRF).
        FirebaseSessionAuthentication().enforce_csrf(request)
        data = valid(SessionInput, request.data)
        id_token = data["idToken"]
        try:
            identity = verify_id_token(id_token, now=True)  # sign-in: a sensitive operation
            # Per account too (a club's Wi-Fi is one address), once verified: a forged token naming
            # someone cannot use up their allowance.
            limit_per_key(request, self, scope="session_account", key=identity.uid)
            user = user_sign_in(identity=identity)
            if not user.is_active:
                raise SignInRefused("This account is disabled.")
            response = Response(UserOutput(user).data)
            session_start(request._request, response, id_token=id_token)
            if greeting := data.get("greeting"):
                messages.success(request._request, GREETINGS[greeting])
            if not identity.email_verified:
                messages.info(
                    request._request,
                    f"Please verify your e-mail address: open the link we sent to {identity.email}.",
                )
        except EmailNotVerified as error:
            # The sign-in islands answer this code with a button that sends the verification e-mail again.
            raise exceptions.PermissionDenied({"detail": str(error), "code": "email_not_verified"}) from error
        except EmailNotAccepted as error:
            raise SignInRefused(str(error)) from error
        except InvalidCredential as error:
            raise SignInRefused() from error
        except IdentityProviderUnavailable as error:
            raise IdentityUnavailable() from error
        return response

    @extend_schema(responses={204: None, **errors(403)})
    def delete(self, request):
        FirebaseSessionAuthentication().enforce_csrf(request)
        response = Response(status=status.HTTP_204_NO_CONTENT)
        session_end(request._request, response)
        return response


class ProfileApi(APIView):
    """POST /api/users: record your own profile. The path's GET, the admins' list of everyone, shows
    each person's membership, which accounts cannot read (memberships is built on it): the path is
    routed to memberships.apis.UserApi, which adds that GET to this POST."""

    @extend_schema(request=ProfileInput, responses={200: UserOutput, **errors(400, 401, 403)})
    def post(self, request):
        fields = valid(ProfileInput, request.data)
        message = "You can only update your own record."
        require_self(request.user, fields.get("email"), or_admin=False, message=message)
        user = user_update_profile(
            user=request.user,
            name=fields["name"],
            image=fields.get("image") or "",
            level=fields.get("level", request.user.level),  # a client that sends none keeps it
        )
        return Response(UserOutput(user).data)


def _visible_user(request, email: str):
    """The user with this e-mail (in any case), if the caller may see them: themselves, or anyone
    for an admin. An address nobody has is never the caller's."""
    user = user_by_email(email)
    message = "You can only look up your own record."
    require_self(request.user, user.email if user else email, or_admin=True, message=message)
    if user is None:
        raise Http404("No user has this e-mail address.")
    return user


class UserRoleApi(APIView):
    """GET: a person's role (themselves, or anyone for an admin). PATCH {"admin": true|false}: an
    admin makes someone an admin or takes it back (docs/rules.md, Roles); 409 for the last admin."""

    def get_permissions(self):
        return [IsAdmin()] if self.request.method == "PATCH" else super().get_permissions()

    @extend_schema(
        responses={200: inline_serializer("Role", {"role": serializers.CharField()}), **errors(401, 403, 404)}
    )
    def get(self, request, email: str):
        return Response({"role": _visible_user(request, email).role})

    @extend_schema(request=AdminRoleInput, responses={200: UserOutput, **errors(400, 401, 403, 404, 409)})
    def patch(self, request, email: str):
        data = valid(AdminRoleInput, request.data)
        user = _visible_user(request, email)
        return Response(UserOutput(user_set_admin(user=user, by=request.user, **data)).data)


class UserByEmailApi(APIView):
    @extend_schema(responses={200: UserOutput, **errors(401, 403, 404)})
    def get(self, request, email: str):
        return Response(UserOutput(_visible_user(request, email)).data)


class PeopleApi(APIView):
    """GET: the club's people whose name holds `?search=`, to choose the players of a booking (anyone
    signed in): their names and public ids only, a slice at a time."""

    @extend_schema(
        parameters=[PeopleQuery, *SLICE_PARAMETERS],
        responses={200: PersonOutput(many=True), **errors(400, 401)},
    )
    def get(self, request):
        search = valid(PeopleQuery, request.query_params)["search"]
        return sliced_response(request, people_named(search, asking=request.user), PersonOutput)
