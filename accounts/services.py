import hashlib
from collections.abc import Collection
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import rotate_token
from django.utils import timezone

from audit.services import audited_update
from kernel.errors import Conflict, Forbidden

from .identity import SESSION_LIFETIME, Identity, InvalidCredential, create_session_cookie, revoke_sessions
from .models import EndedSession, User


class EmailNotVerified(Exception):
    """A sign-in with the e-mail of a record that is not yet this provider account's, before the
    address is verified: whoever first typed someone's address must not get their record."""

    def __init__(self, email: str):
        super().__init__(
            f"Please verify your e-mail address first: open the link we sent to {email}, "
            "then sign in again. This address already has a record at the club, and it becomes "
            "yours once you have shown the address is yours."
        )


def user_sign_in(*, identity: Identity) -> User:
    """The club's record of someone who has just proved who they are (never their role), one per
    provider account (`firebase_uid`). A record with the e-mail of someone signing in for the first
    time (made by `make_admin`, or kept from an account deleted at the provider) becomes theirs once
    they verified the address; an address that is another record's is a Conflict."""
    for _attempt in range(2):  # a concurrent first sign-in may create the row between our read and write
        try:
            with transaction.atomic():
                return _record_sign_in(identity)
        except IntegrityError:
            continue
    raise Conflict(f"Could not record the sign-in of {identity.email}. Please try again.")


def _record_sign_in(identity: Identity) -> User:
    now = timezone.now()
    user = User.objects.select_for_update().filter(firebase_uid=identity.uid).first()
    if user is None:
        user = User.objects.select_for_update().filter(email=identity.email).first()
        if user is None:
            return User.objects.create_user(
                identity.email,
                firebase_uid=identity.uid,
                name=identity.name,
                image=identity.picture,
                last_login=now,
            )
        if not identity.email_verified:
            raise EmailNotVerified(identity.email)
    elif user.signed_out_since(identity.issued_at):
        raise InvalidCredential("This sign-in has been revoked.")
    elif identity.email != user.email and User.objects.filter(email=identity.email).exists():
        raise Conflict(
            f"Your sign-in's e-mail address, {identity.email}, belongs to another account at the club. "
            "Please contact the club to merge them."
        )
    user.firebase_uid = identity.uid
    user.email = identity.email
    # The name and picture are the person's to change (user_update_profile): the provider's fill
    # them only while the record has none.
    user.name = user.name or identity.name
    user.image = user.image or identity.picture
    user.last_login = now
    user.save(update_fields=["firebase_uid", "email", "name", "image", "last_login"])
    return user


def user_from_identity(identity: Identity, *, session_cookie: str | None = None) -> User:
    """The record of someone already signed in, by their Firebase uid (made again should the
    database have lost it); InvalidCredential for a credential older than their last sign-out, or
    for a `session_cookie` signed out of (asked with the record, in the same query)."""
    found = User.objects.filter(firebase_uid=identity.uid)
    if session_cookie is not None:
        ended = EndedSession.objects.filter(digest=_digest(session_cookie))
        found = found.annotate(session_ended=Exists(ended))
    user = found.first()
    if user is None and session_cookie is not None and session_has_ended(session_cookie):
        raise InvalidCredential("Signed out.")
    user = user or user_sign_in(identity=identity)
    if getattr(user, "session_ended", False) or user.signed_out_since(identity.issued_at):
        raise InvalidCredential("This sign-in has been revoked.")
    return user


def _digest(cookie: str) -> str:
    return hashlib.sha256(cookie.encode()).hexdigest()


def session_start(request: HttpRequest, response: HttpResponse, *, id_token: str) -> None:
    """The Firebase session cookie of a verified sign-in, on the response. A cookie carries its time
    in seconds: signed in again in the second one was signed out of, it is the very same cookie,
    which this sign-in makes good again."""
    cookie = create_session_cookie(id_token)
    EndedSession.objects.filter(digest=_digest(cookie)).delete()
    response.set_cookie(
        settings.IDENTITY_COOKIE_NAME,
        cookie,
        max_age=int(SESSION_LIFETIME.total_seconds()),
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )
    rotate_token(request)  # a new CSRF token for the new identity, as Django's login() does


def session_end(request: HttpRequest, response: HttpResponse) -> None:
    """The browser drops the cookie, and the site refuses it from now on, should a copy come back,
    although Firebase would vouch for it until it expires (then its row is of no more use)."""
    if cookie := request.COOKIES.get(settings.IDENTITY_COOKIE_NAME):
        now = timezone.now()
        EndedSession.objects.filter(valid_until__lt=now).delete()
        # No cookie lives longer than a session, whenever it was made.
        valid_until = now + SESSION_LIFETIME
        EndedSession.objects.get_or_create(digest=_digest(cookie), defaults={"valid_until": valid_until})
    response.delete_cookie(settings.IDENTITY_COOKIE_NAME, samesite="Lax")


def session_has_ended(cookie: str) -> bool:
    return EndedSession.objects.filter(digest=_digest(cookie)).exists()


def user_update_profile(*, user: User, name: str, image: str, level: Decimal | None) -> User:
    user.name = name
    user.image = image
    user.level = level
    user.save(update_fields=["name", "image", "level"])
    return user


def user_sign_out_everywhere(*, user: User) -> User:
    """Ends every session of the person at once: Firebase revokes their credentials (first: if it
    cannot be reached, nothing changes), and the site refuses any issued until now without waiting
    for its next revocation check."""
    if user.firebase_uid:
        revoke_sessions(user.firebase_uid)
    user.signed_out_everywhere_at = timezone.now()
    user.save(update_fields=["signed_out_everywhere_at"])
    return user


def user_make_member(*, user: User, since: datetime) -> User:
    """Someone who has paid for a booking is a member from `since` (the first time only); admins
    stay admins."""
    if user.role == User.Role.USER:
        user.role = User.Role.MEMBER
        user.member_since = user.member_since or since
        user.save(update_fields=["role", "member_since"])
    return user


def user_unmake_member(*, user: User) -> User:
    """A member whose membership has ended is a user again (memberships.services.membership_end);
    admins stay admins."""
    if user.role == User.Role.MEMBER:
        user.role = User.Role.USER
        user.member_since = None
        user.save(update_fields=["role", "member_since"])
    return user


@transaction.atomic
def user_end_membership(*, member: User, by: User) -> User:
    """The member goes back to being a user; their account, bookings and payments stay."""
    if member.role != User.Role.MEMBER:
        raise Conflict(f"{member.email} is not a member.")
    return audited_update(
        member,
        by=by,
        action="user.membership_end",
        changes={"role": User.Role.USER, "member_since": None},
        summary=lambda before, after: f"Ended the membership of {member.email}",
        audited=["role", "member_since"],
        save=lambda member: member.save(update_fields=["role", "member_since"]),
    )


def user_make_admin(*, user: User) -> User:
    """`manage.py make_admin`: the first admin, or an admin back (active again)."""
    user.role = User.Role.ADMIN
    user.is_active = True
    user.save(update_fields=["role", "is_active"])
    return user


class LastAdmin(Conflict):
    def __init__(self) -> None:
        super().__init__("This is the club's last admin: make someone else an admin first.")


def users_leave_an_admin(*, leaving: Collection[int]) -> list[int]:
    """The ids of the club's active admins, once sure that the people `leaving` (demoted,
    deactivated or deleted) are not all of them. Their rows stay locked until the caller's
    transaction ends, so that two such changes at once cannot leave the club none."""
    rows = User.objects.select_for_update().filter(role=User.Role.ADMIN, is_active=True)
    admins = list(rows.order_by("pk").values_list("pk", flat=True))
    if admins and set(admins) <= set(leaving):
        raise LastAdmin()
    return admins


@transaction.atomic
def user_set_admin(*, user: User, admin: bool, by: User) -> User:
    """An admin makes someone an admin, or takes it back: they become a member again if they ever
    paid (member_since), else a user. The club always keeps one active admin."""
    admins = users_leave_an_admin(leaving=[] if admin else [user.pk])
    if by.pk not in admins:  # read under the lock: an admin demoted a moment ago is no longer one
        raise Forbidden("Only an admin may change who is an admin.")
    user = User.objects.select_for_update().get(pk=user.pk)
    role = user.role
    if admin:
        role = User.Role.ADMIN
    elif role == User.Role.ADMIN:
        role = User.Role.MEMBER if user.member_since else User.Role.USER
    return audited_update(
        user,
        by=by,
        action="user.role",
        changes={"role": role},  # recorded only if it changes
        summary=lambda before, after: f"{user.email}: {before['role']} → {after['role']}",
        save=lambda user: user.save(update_fields=["role"]),
    )
