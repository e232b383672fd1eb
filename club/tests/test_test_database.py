"""The tests' database is emptied between tests that commit (testing/postgresql/base.py): every row
they wrote is gone, the append-only audit trail's too, and the content types and permissions that
the migrations made stay as they were."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from accounts.models import User
from audit.models import AuditEntry
from audit.services import audit_record
from bookings.tests.factories import make_booking


def made_by_the_migrations() -> tuple[list, list]:
    return (
        list(ContentType.objects.order_by("pk").values_list("pk", "app_label", "model")),
        list(Permission.objects.order_by("pk").values_list("pk", "codename")),
    )


@pytest.mark.django_db(transaction=True)
def test_the_flush_between_tests_empties_every_table_and_keeps_the_migrations_rows():
    before = made_by_the_migrations()
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    booking = make_booking(user=admin)
    audit_record(actor=admin, action="booking.approve", target=booking, summary="Approved")

    # What pytest-django's transactional_db does after each test (Django's TransactionTestCase).
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False)

    assert made_by_the_migrations() == before
    assert not AuditEntry.objects.exists()
    kept = {ContentType, Permission}
    left = {model.__name__ for model in apps.get_models() if model not in kept and model.objects.exists()}
    assert left == set()
