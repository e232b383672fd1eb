"""A club's database from before coupons belonged to the payments app migrates forward with its
coupons, their ids and the payments that name them."""

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from bookings.models import Booking
from bookings.tests.factories import make_booking
from payments.models import Coupon, Payment

BEFORE = [
    ("content", "0004_text_without_control_characters"),
    ("payments", "0009_refund_sending_claim"),
]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(targets: list[tuple[str, str]]):
    """The database migrated to `targets`; answers the apps' models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()  # what the previous run applied or unapplied
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def latest():
    """The latest migrations, applied again after the test whatever happens in it."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield latest
    migrate(latest)


def test_the_coupons_and_the_payments_made_with_them_are_kept(latest):
    booking = make_booking(status=Booking.Status.CONFIRMED)
    old = migrate(BEFORE)
    spring = old.get_model("content", "Coupon").objects.create(code="SPRING", discount=10, max_uses=5)
    old.get_model("payments", "Payment").objects.create(
        booking_id=booking.pk, user_id=booking.user_id, amount=Decimal("18.00"), currency="usd", coupon=spring
    )

    migrate(latest)

    coupon = Coupon.objects.get()
    assert (coupon.pk, coupon.code, coupon.discount, coupon.max_uses) == (spring.pk, "SPRING", 10, 5)
    assert Payment.objects.get().coupon == coupon
    assert Coupon._meta.db_table == "payments_coupon"
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    assert "payments_coupon" in tables
    assert "content_coupon" not in tables
    # The id sequence goes on after the coupons kept.
    assert Coupon.objects.create(code="SUMMER", discount=5).pk > spring.pk
