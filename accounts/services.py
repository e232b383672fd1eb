from django.db import IntegrityError, transaction
from django.utils import timezone

from .identity import Identity
from .models import User


def user_sign_in(*, identity: Identity) -> User:
    """The club's record of someone who has just proved who they are: found by their Firebase uid
    (or, the first time, by e-mail, so a record made before they first signed in is theirs),
    created if new, with `last_login` now. Their role is never touched here."""
    now = timezone.now()
    for _attempt in range(2):  # a concurrent first sign-in may create the row between our read and write
        try:
            with transaction.atomic():
                user = (
                    User.objects.select_for_update().filter(firebase_uid=identity.uid).first()
                    or User.objects.select_for_update().filter(email=identity.email).first()
                )
                if user is None:
                    return User.objects.create_user(
                        identity.email,
                        firebase_uid=identity.uid,
                        name=identity.name,
                        image=identity.picture,
                        last_login=now,
                    )
                user.firebase_uid = identity.uid
                user.email = identity.email
                user.name = identity.name or user.name
                user.image = identity.picture or user.image
                user.last_login = now
                user.save(update_fields=["firebase_uid", "email", "name", "image", "last_login"])
                return user
        except IntegrityError:
            continue
    raise IntegrityError(f"Could not record the sign-in of {identity.email}.")


def user_from_identity(identity: Identity) -> User:
    """The record of someone already signed in (a session or an API call), by their Firebase uid.
    Should the database have lost it since they signed in, it is made again."""
    return User.objects.filter(firebase_uid=identity.uid).first() or user_sign_in(identity=identity)


def user_update_profile(*, user: User, name: str, image: str) -> User:
    """What a person may change about themselves: their name and picture, nothing else."""
    user.name = name
    user.image = image
    user.save(update_fields=["name", "image"])
    return user


def user_make_admin(*, user: User) -> User:
    user.role = User.Role.ADMIN
    user.save(update_fields=["role"])
    return user
