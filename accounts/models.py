import uuid
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager
from django.core.validators import MaxValueValidator, MinValueValidator, URLValidator
from django.db import models
from django.utils import timezone

from kernel.text import validate_one_line

# A person's photo: https only, as the pages' Content Security Policy loads images from this site or
# over https (and as accounts.identity keeps a provider's photo).
validate_photo_url = URLValidator(schemes=["https"], message="Enter an https:// address of an image.")


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **fields: Any) -> "User":
        if not email:
            raise ValueError("A user needs an e-mail address.")
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)  # None: unusable, as people sign in through Firebase
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **fields: Any) -> "User":
        return self.create_user(email, password, role=User.Role.ADMIN, **fields)


def public_name(name: str) -> str:
    """A person's name as others see it (User.public_name), from the name alone."""
    return name or "A player of the club"


# The scale of a player's level, as padel and tennis clubs rate it.
LEVEL_LOWEST, LEVEL_HIGHEST = Decimal("1.0"), Decimal("7.0")
LEVEL_RULE = "A level is from 1.0 to 7.0."


def level_field() -> "models.DecimalField[Decimal | None, Decimal | None]":
    """A level of play on that scale, to one decimal; empty for none (a person's, or one end of an
    open match's range)."""
    return models.DecimalField(
        max_digits=2,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[
            MinValueValidator(LEVEL_LOWEST, LEVEL_RULE),
            MaxValueValidator(LEVEL_HIGHEST, LEVEL_RULE),
        ],
    )


class User(AbstractBaseUser):
    """A person known to the club, identified by e-mail, signed in through Firebase. The role lives
    here, not in the identity provider. Admins are the club's staff: they may use Django admin."""

    class Role(models.TextChoices):
        USER = "user", "User"
        MEMBER = "member", "Member"
        ADMIN = "admin", "Admin"

    email = models.EmailField(unique=True)
    # How other people of the club refer to this one (the players of a booking): never the e-mail,
    # nor the row's number, which would count the club's people.
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=150, blank=True, validators=[validate_one_line])
    image = models.URLField(max_length=500, blank=True)
    # How well they play, by their own judgement, for others choosing players: 1.0 to 7.0.
    level = level_field()
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.USER)
    firebase_uid = models.CharField(max_length=128, unique=True, null=True, blank=True)
    member_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    is_active = models.BooleanField(default=True)
    # "Sign out everywhere": every credential issued up to this moment is refused.
    signed_out_everywhere_at = models.DateTimeField(null=True, blank=True)
    # The announcements made after this moment are unread (content.selectors.unread_announcements):
    # it moves on when the person opens the announcements page, and starts when they join, so that
    # the club's past news does not greet a newcomer as unread.
    announcements_seen_at = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"

    class Meta:
        ordering = ["created_at"]
        # The admin's lists of people, oldest first: everyone, or one role.
        indexes = [
            models.Index(fields=["created_at", "id"], name="user_list"),
            models.Index(fields=["role", "created_at", "id"], name="user_list_by_role"),
        ]

    def __str__(self) -> str:
        return self.email

    @property
    def display_name(self) -> str:
        return self.name or self.email

    @property
    def public_name(self) -> str:
        """What other people of the club see of this one: the name, never the e-mail address."""
        return public_name(self.name)

    @property
    def is_admin(self) -> bool:
        return self.is_active and self.role == self.Role.ADMIN

    @property
    def is_member(self) -> bool:
        return self.is_active and self.role == self.Role.MEMBER

    # What Django admin asks: admins may see and change everything there, nobody else anything.
    @property
    def is_staff(self) -> bool:
        return self.is_admin

    is_superuser = is_staff

    def signed_out_since(self, issued_at: int) -> bool:
        """Whether a credential issued at `issued_at` (whole seconds since the epoch, as Firebase
        gives it) predates this person's last "sign out everywhere". A credential of that very
        second counts as older: it cannot be told apart from one issued just before."""
        ended = self.signed_out_everywhere_at
        return ended is not None and issued_at <= ended.timestamp()

    def has_perm(self, perm: str, obj: models.Model | None = None) -> bool:
        return self.is_admin

    def has_module_perms(self, app_label: str) -> bool:
        return self.is_admin


class EndedSession(models.Model):
    """A session cookie someone signed out of. Firebase would go on vouching for it until it
    expires, so the site refuses it itself; the table is shared by every app process."""

    digest = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the cookie.")
    valid_until = models.DateTimeField(db_index=True, help_text="When the cookie expires anyway.")

    def __str__(self) -> str:
        return f"ended session {self.digest[:12]}…"
