import pytest
from django.core.management import CommandError, call_command

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_make_admin_promotes_a_user():
    User.objects.create_user("ada@example.com")

    call_command("make_admin", "Ada@Example.com", stdout=None)

    assert User.objects.get().role == User.Role.ADMIN


def test_make_admin_prepares_the_record_of_someone_who_has_not_signed_in_yet():
    call_command("make_admin", "new@example.com")

    user = User.objects.get()
    assert (user.email, user.role, user.firebase_uid) == ("new@example.com", User.Role.ADMIN, None)


def test_make_admin_refuses_what_is_not_an_email():
    with pytest.raises(CommandError, match="is not an e-mail address"):
        call_command("make_admin", "nobody")
    assert User.objects.count() == 0
