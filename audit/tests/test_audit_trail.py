"""The audit trail: each admin action is one entry (who, when, what, before and after), written in
the action's own transaction; entries are never changed nor deleted; admins browse and filter
them, and a booking's page shows its part."""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.services import user_end_membership, user_set_admin
from audit.models import AppendOnly, AuditEntry
from bookings.blocks import block_create, block_delete
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.services import booking_approve, booking_cancel, booking_reject, policy_update
from bookings.tests.factories import make_booking, tomorrow
from club.trail import KINDS
from courts.tests.factories import CourtFactory
from kernel.errors import Conflict

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    return User.objects.create_user("ann@example.com", role=User.Role.ADMIN)


def entries() -> list[tuple]:
    return list(AuditEntry.objects.order_by("id").values_list("actor_email", "action", "before", "after"))


def test_an_admins_decisions_on_bookings_are_audited_and_the_owners_own_are_not(ann):
    court = CourtFactory(slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"])
    ada = User.objects.create_user("ada@example.com")
    first, second, third = (make_booking(user=ada, court=court, slots=[slot]) for slot in court.slots)

    booking_approve(booking=first, by=ann)
    booking_reject(booking=second, by=ann, reason="Closed for a tournament")
    booking_cancel(booking=third, by=ada)  # the owner's own: not an admin action

    assert entries() == [
        ("ann@example.com", "booking.approved", {"status": "pending"}, {"status": "approved"}),
        (
            "ann@example.com",
            "booking.rejected",
            {"status": "pending"},
            {"status": "rejected", "reason": "Closed for a tournament"},
        ),
    ]
    assert AuditEntry.objects.filter(target_type="booking", target_id=str(first.pk)).count() == 1


def test_a_refused_action_leaves_no_entry(ann):
    booking = make_booking(status=Booking.Status.APPROVED)

    with pytest.raises(Conflict):
        booking_reject(booking=booking, by=ann)

    assert entries() == []


def test_policy_blocks_roles_and_memberships_are_audited_with_their_values(ann):
    policy_update(by=ann, late_refund_percent=50, refund_percent=100)  # 100 was already the rule
    court = CourtFactory(slots=["08:00-09:00"])
    block = block_create(by=ann, court=court, date=tomorrow(), slots=["08:00-09:00"], reason="Works")
    block_delete(block=block, by=ann)
    bob = User.objects.create_user("bob@example.com")
    user_set_admin(user=bob, admin=True, by=ann)
    mia = User.objects.create_user("mia@example.com", role=User.Role.MEMBER)
    user_end_membership(member=mia, by=ann)

    actions = [(action, before, after) for _, action, before, after in entries()]
    assert actions[0] == ("policy.change", {"late_refund_percent": 0}, {"late_refund_percent": 50})
    assert [action for action, *_ in actions[1:]] == [
        "block.create",
        "block.delete",
        "user.role",
        "user.membership_end",
    ]
    assert actions[1][2]["reason"] == "Works"
    assert actions[3][1:] == ({"role": "user"}, {"role": "admin"})


def test_entries_are_never_changed_nor_deleted_by_the_app_nor_the_database(ann):
    policy_update(by=ann, open_bookings_limit=7)
    entry = AuditEntry.objects.get()

    entry.summary = "nothing happened"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        AuditEntry.objects.update(summary="nothing happened")
    with pytest.raises(AppendOnly):
        AuditEntry.objects.all().delete()
    # Past the model, PostgreSQL's trigger refuses too.
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditentry SET summary = 'x'")
    assert AuditEntry.objects.get().summary.startswith("Club rules changed")


@pytest.mark.parametrize(
    ("kind", "status_code", "lands_on"),
    [
        ("anonymous", 302, "/login?next=/dashboard/audit-trail"),
        ("owner", 302, "/forbidden"),
        ("member", 302, "/forbidden"),
        ("admin", 200, None),
    ],
)
def test_only_admins_browse_the_trail(people, kind, status_code, lands_on):
    response = people[kind].get("/dashboard/audit-trail")

    assert response.status_code == status_code
    if lands_on:
        assert response["Location"] == lands_on


def test_the_trail_filters_by_kind_person_and_record_and_a_booking_shows_its_part(people):
    ann = User.objects.get(email="ann@example.com")
    ada = User.objects.get(email="ada@example.com")
    booking = make_booking(user=ada, court=CourtFactory(price=Decimal("20.00")))
    booking_approve(booking=booking, by=ann)
    policy_update(by=ann, open_bookings_limit=9)

    every = people["admin"].get("/dashboard/audit-trail").content.decode()
    bookings_only = people["admin"].get("/dashboard/audit-trail?action=booking.").content.decode()
    nobody = people["admin"].get("/dashboard/audit-trail?actor_email=zed").content.decode()
    one = people["admin"].get(f"/dashboard/audit-trail?target_type=booking&target_id={booking.pk}")

    assert "2 entries" in every
    assert "Club rules changed" in every
    assert "Club rules changed" not in bookings_only
    assert f"Booking #{booking.pk}" in bookings_only
    assert "No admin actions found." in nobody
    assert "1 entry" in one.content.decode()
    detail = people["admin"].get(f"/dashboard/bookings/{booking.pk}").content.decode()
    assert "Admin actions" in detail
    assert f"Booking #{booking.pk} of" in detail
    owners = people["owner"].get(f"/dashboard/bookings/{booking.pk}")
    assert "Admin actions" not in owners.content.decode()


@pytest.mark.parametrize("query", ["date_to=9999-12-31", "date_from=0001-01-01"])
def test_a_day_at_the_calendars_ends_is_said_under_its_field_and_filters_nothing(people, query):
    policy_update(by=User.objects.get(email="ann@example.com"), open_bookings_limit=9)

    response = people["admin"].get(f"/dashboard/audit-trail?{query}")

    assert response.status_code == 200
    assert "Choose a day from 1900 to 2999." in response.content.decode()
    assert "1 entry" in response.content.decode()


def test_a_fix_in_django_admin_is_one_entry_with_the_changed_values_before_and_after(people):
    ada = User.objects.get(email="ada@example.com")
    form = {"email": ada.email, "name": "Ada King", "image": "", "is_active": "on"}

    response = people["admin"].post(f"/admin/accounts/user/{ada.pk}/change/", form, follow=True)

    assert "was changed successfully" in response.content.decode()
    assert entries() == [("ann@example.com", "admin.change", {"name": "Ada Lovelace"}, {"name": "Ada King"})]
    entry = AuditEntry.objects.get()
    assert (entry.target_type, entry.target_id) == ("user", str(ada.pk))
    assert entry.summary == "Django admin, user ada@example.com: Changed Name."


def test_a_role_is_not_changed_in_django_admin_but_through_its_service(people):
    """The Users admin shows the role without a field: a POST that sets one changes nothing (else
    it could demote the club's last admin, past user_set_admin's rule)."""
    ann = User.objects.get(email="ann@example.com")
    page = people["admin"].get(f"/admin/accounts/user/{ann.pk}/change/").content.decode()
    assert 'name="role"' not in page
    form = {"email": ann.email, "name": ann.name, "image": "", "role": "user", "is_active": "on"}

    people["admin"].post(f"/admin/accounts/user/{ann.pk}/change/", form)

    ann.refresh_from_db()
    assert ann.role == User.Role.ADMIN
    assert entries() == []


def test_a_record_saved_unchanged_in_django_admin_leaves_no_entry(people):
    ada = User.objects.get(email="ada@example.com")
    form = {"email": ada.email, "name": ada.name, "image": "", "is_active": "on"}

    response = people["admin"].post(f"/admin/accounts/user/{ada.pk}/change/", form)

    assert response.status_code == 302
    assert entries() == []


def test_a_deletion_in_django_admin_keeps_the_fields_shown_there_and_never_a_password(people):
    zed = User.objects.create_user("zed@example.com", name="Zed")

    response = people["admin"].post(f"/admin/accounts/user/{zed.pk}/delete/", {"post": "yes"}, follow=True)

    assert "was deleted successfully" in response.content.decode()
    [(who, action, before, after)] = entries()
    assert (who, action, after) == ("ann@example.com", "admin.delete", None)
    assert (before["email"], before["name"], before["role"]) == ("zed@example.com", "Zed", "user")
    assert "password" not in before


def test_admins_read_the_trail_in_django_admin_and_change_none_of_it(people):
    policy_update(by=User.objects.get(email="ann@example.com"), open_bookings_limit=7)
    entry = AuditEntry.objects.get()

    listed = people["admin"].get("/admin/audit/auditentry/?action__exact=policy.change").content.decode()
    changed = people["admin"].post(f"/admin/audit/auditentry/{entry.pk}/change/", {"summary": "nothing"})
    deleted = people["admin"].post(f"/admin/audit/auditentry/{entry.pk}/delete/", {"post": "yes"})

    assert "Club rules changed" in listed
    assert (changed.status_code, deleted.status_code) == (403, 403)
    assert AuditEntry.objects.get().summary == entry.summary


def test_courts_coupons_and_announcements_changed_on_the_site_are_audited_with_their_values(people):
    admin = people["admin"]
    court = admin.post(
        "/api/courts",
        {"name": "Centre", "type": "Tennis", "price": "20.00", "image": "/static/img/logo.svg", "slots": []},
        content_type="application/json",
    ).json()
    admin.patch(f"/api/courts/{court['id']}", {"price": "25.00"}, content_type="application/json")
    coupon = admin.post(
        "/api/coupons", {"code": "spring", "discount": 10}, content_type="application/json"
    ).json()
    admin.delete(f"/api/coupons/{coupon['id']}")
    admin.post("/api/announcements", {"text": "Courts close at 6 pm."}, content_type="application/json")

    rows = list(AuditEntry.objects.order_by("id").values_list("action", "before", "after"))
    assert [action for action, _, _ in rows] == [
        "court.create",
        "court.update",
        "coupon.create",
        "coupon.delete",
        "announcement.create",
    ]
    assert (rows[1][1]["price"], rows[1][2]["price"]) == ("20.00", "25.00")
    assert rows[3][1]["code"] == "SPRING"
    assert rows[4][2] == {"text": "Courts close at 6 pm."}
    assert set(AuditEntry.objects.values_list("actor_email", flat=True)) == {"ann@example.com"}


def trail_rows(client) -> list[list[str]]:
    """The trail's rows as their cells' texts, the lines of a cell (or its name and e-mail) joined
    by " | " (a <wbr> only lets a word break)."""
    html = client.get("/dashboard/audit-trail").content.decode()
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    return [
        [
            " | ".join(
                part.strip() for part in re.split(r"<[^>]+>", cell.replace("<wbr>", "")) if part.strip()
            )
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_the_trail_says_each_change_as_field_old_to_new_and_who_by_name_and_e_mail(people):
    ann = User.objects.get(email="ann@example.com")
    User.objects.filter(pk=ann.pk).update(name="Ann Admin")
    limit = policy_get().open_bookings_limit
    policy_update(by=ann, open_bookings_limit=limit + 1)
    booking = make_booking(court=CourtFactory(price=Decimal("20.00")))
    booking_reject(booking=booking, by=ann, reason="Court closed for repairs")

    rejected, policy = trail_rows(people["admin"])

    assert rejected[1] == "Ann Admin | ann@example.com"
    assert rejected[3] == "status: pending → rejected | reason: Court closed for repairs"
    assert policy[3] == f"open bookings limit: {limit} → {limit + 1}"


def test_a_record_made_or_deleted_lists_its_values_and_dates_slots_and_lists_read_as_text(people):
    ann = User.objects.get(email="ann@example.com")
    court = CourtFactory(name="Centre", slots=["08:00-09:00", "09:00-10:00"])
    block = block_create(
        court=court, date=tomorrow(), slots=["08:00-09:00", "09:00-10:00"], reason="Repairs", by=ann
    )
    block_delete(block=block, by=ann)

    deleted, made = trail_rows(people["admin"])

    # PostgreSQL keeps a JSON object's keys in an order of its own.
    expected = {
        f"court: {court.pk}",
        f"date: {tomorrow().isoformat()}",
        "until: —",
        "slots: 08:00-09:00, 09:00-10:00",
        "reason: Repairs",
    }
    assert set(made[3].split(" | ")) == expected
    assert set(deleted[3].split(" | ")) == expected


def test_the_trail_costs_the_same_queries_however_many_entries(people):
    ann = User.objects.get(email="ann@example.com")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert people["admin"].get("/dashboard/audit-trail").status_code == 200
        return len(captured)

    policy_update(by=ann, open_bookings_limit=7)
    few = queries()
    for number in range(2, 12):
        admin = User.objects.create_user(
            f"admin{number}@example.com", name=f"Admin {number}", role=User.Role.ADMIN
        )
        policy_update(by=admin, open_bookings_limit=number)

    assert queries() == few


# Every action the apps write into the trail: each literal `action="kind.verb"` (and the booking
# transitions' `action=f"booking.{to}"`) in their code.
RECORDED_ACTION = re.compile(r'action=f?"([a-z_]+)\.')


def test_every_kind_of_action_the_apps_record_can_be_chosen_on_the_trail():
    root = Path(settings.BASE_DIR)
    sources = [p for p in root.glob("*/*.py") if p.parts[-2] not in {"tests", "migrations"}]
    recorded = {kind for path in sources for kind in RECORDED_ACTION.findall(path.read_text())}
    assert recorded >= {"booking", "contact", "calendar_feed"}  # the pattern finds them
    choosable = {prefix.rstrip(".") for prefix, _ in KINDS if prefix}
    assert recorded <= choosable, f"no choice on the Audit Trail for {sorted(recorded - choosable)}"
