"""The programs' API and pages, for each kind of caller: anonymous, the person registered (the
owner), another user, a member, an admin, and the coach."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from courts.tests.factories import CourtFactory
from programs.models import Program, Registration
from programs.services import program_register
from programs.tests.factories import in_days, make_program

pytestmark = pytest.mark.django_db
Status = Registration.Status


@pytest.fixture
def program(people):
    """Kim's clinic (made by Ann), with Ada registered and Bob, with a place held, to pay."""
    coach = User.objects.create_user("coach@example.com", name="Cora Coach")
    made = make_program(by=User.objects.get(email="ann@example.com"), coach=coach, coach_name="")
    program_register(program=made, user=User.objects.get(email="ada@example.com"))
    return made


@pytest.fixture
def coach(program, sign_in_as):
    client = sign_in_as("coach2@example.com", name="Cora Two")
    Program.objects.filter(pk=program.pk).update(coach=User.objects.get(email="coach2@example.com"))
    return client


def new_program(court_id: int, **fields) -> dict:
    now = timezone.now()
    return {
        "kind": "clinic",
        "title": "Serve clinic",
        "description": "All about the serve.",
        "coachName": "Coach Carter",
        "courtIds": [court_id],
        "slots": ["10:00-11:00"],
        "firstDate": str(in_days(6)),
        "capacity": 8,
        "price": "30.00",
        "registrationOpensAt": now.isoformat(),
        "registrationClosesAt": (now + timedelta(days=5)).isoformat(),
        **fields,
    }


@pytest.mark.parametrize(
    ("caller", "code"), [("anonymous", 200), ("owner", 200), ("other", 200), ("member", 200), ("admin", 200)]
)
def test_anyone_lists_the_programs_open_for_registration(people, program, caller, code):
    Program.objects.create(
        kind="event",
        title="Last year's party",
        coach_name="x",
        first_date=in_days(-30),
        slots=["10:00-11:00"],
        starts_at=timezone.now() - timedelta(days=30),
        capacity=10,
        price=0,
        registration_opens_at=timezone.now() - timedelta(days=40),
        registration_closes_at=timezone.now() - timedelta(days=31),
    )

    response = people[caller].get("/api/programs")

    assert response.status_code == code
    [listed] = response.json()
    assert (listed["title"], listed["placesLeft"], listed["coach"]) == ("Beginners' clinic", 3, "Cora Coach")
    assert listed["courts"] == ["Clinic Court"]
    page = people[caller].get("/programs")
    assert "Beginners&#x27; clinic" in page.content.decode()
    assert "Last year" not in page.content.decode()


@pytest.mark.parametrize(
    ("caller", "code"), [("anonymous", 401), ("owner", 403), ("other", 403), ("member", 403), ("admin", 201)]
)
def test_only_an_admin_makes_a_program(people, caller, code):
    court = CourtFactory(slots=["10:00-11:00"])

    response = people[caller].post("/api/programs", new_program(court.pk), content_type="application/json")

    assert response.status_code == code
    assert Program.objects.exists() == (code == 201)
    if code == 201:
        assert response.json()["placesLeft"] == 8


def test_a_bad_program_is_a_400_per_field(people):
    court = CourtFactory(slots=["10:00-11:00"])

    response = people["admin"].post(
        "/api/programs",
        new_program(
            court.pk,
            title="",
            capacity=0,
            slots=["07:00-08:00"],
            coachName="",
            coachEmail="nobody@example.com",
        ),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert set(response.json()) == {"capacity"}  # the serializer's bounds first
    response = people["admin"].post(
        "/api/programs",
        new_program(court.pk, slots=["07:00-08:00"], coachEmail="nobody@example.com"),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json() == {"coachEmail": ["Nobody of the club has this address."]}


@pytest.mark.parametrize(
    ("caller", "code"), [("anonymous", 401), ("owner", 403), ("other", 403), ("member", 403), ("admin", 200)]
)
def test_only_an_admin_changes_a_program(people, program, caller, code):
    response = people[caller].patch(
        f"/api/programs/{program.pk}", {"capacity": 6}, content_type="application/json"
    )

    assert response.status_code == code
    program.refresh_from_db()
    assert program.capacity == (6 if code == 200 else 4)


@pytest.mark.parametrize(
    ("caller", "code"), [("anonymous", 401), ("owner", 403), ("other", 403), ("member", 403), ("admin", 200)]
)
def test_only_an_admin_calls_a_program_off(people, program, caller, code):
    response = people[caller].delete(f"/api/programs/{program.pk}", {}, content_type="application/json")

    assert response.status_code == code
    program.refresh_from_db()
    assert program.status == ("cancelled" if code == 200 else "open")
    if code == 200:
        assert people["other"].get(f"/api/programs/{program.pk}").status_code == 404  # called off
        assert people["admin"].get(f"/programs/{program.pk}").status_code == 200


@pytest.mark.parametrize(
    ("caller", "code", "status"),
    [
        ("anonymous", 401, None),
        ("owner", 409, None),
        ("other", 201, "held"),
        ("member", 201, "held"),
        ("admin", 201, "held"),
    ],
)
def test_registering_by_caller(people, program, caller, code, status):
    response = people[caller].post(f"/api/programs/{program.pk}/register")

    assert response.status_code == code
    if status:
        answer = response.json()
        assert answer["status"] == status
        assert answer["payUrl"] == f"/dashboard/registrations/{answer['id']}/payment-page"


@pytest.mark.parametrize(
    ("caller", "code"), [("anonymous", 401), ("owner", 200), ("other", 404), ("member", 404), ("admin", 200)]
)
def test_who_may_cancel_a_registration(people, program, caller, code):
    registration = program.registrations.get()

    response = people[caller].delete(f"/api/registrations/{registration.pk}")

    assert response.status_code == code
    registration.refresh_from_db()
    assert registration.status == (Status.CANCELLED if code == 200 else Status.HELD)


@pytest.mark.parametrize(
    ("caller", "code", "emails"),
    [
        ("anonymous", 401, None),
        ("owner", 404, None),
        ("member", 404, None),
        ("coach", 200, False),
        ("admin", 200, True),
    ],
)
def test_the_coach_and_admins_see_the_participants_and_admins_their_contact(
    people, program, coach, caller, code, emails
):
    client = coach if caller == "coach" else people[caller]

    response = client.get(f"/api/programs/{program.pk}/participants")

    assert response.status_code == code
    if code == 200:
        [ada] = response.json()
        assert ada["name"] == "Ada Lovelace"
        assert (ada["email"] == "ada@example.com") == emails
        page = client.get(f"/programs/{program.pk}/participants").content.decode()
        assert ("ada@example.com" in page) == emails
    page = client.get(f"/programs/{program.pk}/participants")
    assert page.status_code == (200 if code == 200 else 302 if caller == "anonymous" else 404)


def test_the_coach_writes_to_the_participants_from_the_page(people, program, coach):
    refused = coach.post(f"/programs/{program.pk}/participants", {"subject": "", "message": ""})
    assert refused.status_code == 400
    assert "Give the message a subject." in refused.content.decode()

    sent = coach.post(
        f"/programs/{program.pk}/participants", {"subject": "Rain", "message": "Bring a jacket."}
    )

    assert sent.status_code == 302
    assert program.registrations.get().user.notifications.filter(event="program_message").count() == 1


def test_the_program_page_registers_and_sends_to_the_payment_page(people, program):
    page = people["member"].get(f"/programs/{program.pk}").content.decode()
    assert "Register" in page
    assert "3 of 4" in page

    response = people["member"].post(f"/programs/{program.pk}/register")

    registration = Registration.objects.get(user__email="mia@example.com")
    assert response["Location"] == f"/dashboard/registrations/{registration.pk}/payment-page"
    page = people["member"].get(f"/programs/{program.pk}").content.decode()
    assert "A place is held for you until" in page
    assert "cancel-registration" in page


def test_a_full_programs_page_offers_its_waitlist(people, program):
    Program.objects.filter(pk=program.pk).update(capacity=1)

    page = people["other"].get(f"/programs/{program.pk}").content.decode()
    assert "Join the waitlist" in page
    response = people["other"].post(f"/programs/{program.pk}/register", follow=True)

    assert "you are on its waitlist" in response.content.decode()


def test_manage_programs_makes_one_and_says_what_is_wrong_under_its_fields(people):
    court = CourtFactory(name="Clinic Court", slots=["10:00-11:00"])
    assert people["member"].get("/dashboard/manage-programs").status_code == 302
    now = timezone.localtime()
    form = {
        "kind": "clinic",
        "title": "Volley clinic",
        "coach_name": "Coach Carter",
        "courts": [court.pk],
        "first_date": str(in_days(6)),
        "slots": ["10:00-11:00"],
        "capacity": "4",
        "price": "25.00",
        "registration_opens_at": now.strftime("%Y-%m-%dT%H:%M"),
        "registration_closes_at": (now + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M"),
        "cancel_cutoff_hours": "24",
    }

    refused = people["admin"].post("/dashboard/manage-programs", form)

    assert refused.status_code == 400
    assert "Registration closes by the time it begins" in refused.content.decode()
    form["registration_closes_at"] = (now + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    made = people["admin"].post("/dashboard/manage-programs", form)
    program = Program.objects.get()
    assert made["Location"] == f"/programs/{program.pk}"
    assert (program.title, program.price, program.capacity) == ("Volley clinic", Decimal("25.00"), 4)


def test_the_program_lists_cost_the_same_queries_however_many(people, program):
    """One program and then nine, on nine courts, each with a place or two taken."""

    def counted(client, path: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        return len(queries)

    paths = [
        "/programs",
        "/api/programs",
        "/dashboard/manage-programs",
        f"/programs/{program.pk}/participants",
    ]
    one = {path: counted(people["admin"], path) for path in paths}
    for n in range(8):
        more = make_program(
            by=User.objects.get(email="ann@example.com"),
            courts=[CourtFactory(name=f"Court {n}", slots=["10:00-11:00"])],
            title=f"Clinic {n}",
        )
        program_register(program=more, user=User.objects.get(email="bob@example.com"))
    Program.objects.filter(pk=program.pk).update(capacity=20)
    for n in range(6):
        program_register(program=program, user=User.objects.create_user(f"p{n}@example.com", name=f"P {n}"))

    assert {path: counted(people["admin"], path) for path in paths} == one
    assert len(people["admin"].get("/api/programs").json()) == 9


@pytest.mark.parametrize(
    ("caller", "code"),
    [("anonymous", 401), ("owner", 404), ("other", 404), ("member", 404), ("coach", 200), ("admin", 200)],
)
def test_who_may_write_to_the_participants_through_the_api(people, program, coach, caller, code):
    client = coach if caller == "coach" else people[caller]

    response = client.post(
        f"/api/programs/{program.pk}/participants",
        {"subject": "Courts moved", "message": "We play on court 2 this week."},
        content_type="application/json",
    )

    assert response.status_code == code
    told = program.registrations.get().user.notifications.filter(event="program_message")
    assert told.count() == (1 if code == 200 else 0)
    if code == 200:
        assert response.json() == {"told": 1}


@pytest.mark.parametrize("caller", ["anonymous", "owner", "other", "member", "admin"])
def test_anyone_reads_an_open_program_and_the_person_registered_sees_it_on_its_page(people, program, caller):
    response = people[caller].get(f"/api/programs/{program.pk}")

    assert response.status_code == 200
    assert response.json()["placesLeft"] == 3
    page = people[caller].get(f"/programs/{program.pk}").content.decode()
    assert ("A place is held for you until" in page) == (caller == "owner")
    assert ("Sign in to register" in page) == (caller == "anonymous")


@pytest.mark.parametrize(
    ("caller", "lands_on"),
    [("anonymous", "/login?next="), ("owner", "/forbidden"), ("member", "/forbidden"), ("admin", None)],
)
def test_only_an_admin_changes_a_programs_details_on_its_page(people, program, caller, lands_on):
    path = f"/dashboard/manage-programs/{program.pk}"

    response = people[caller].get(path)

    if lands_on:
        assert response.status_code == 302
        assert response["Location"].startswith(lands_on)
        return
    page = response.content.decode()
    assert 'value="Beginners&#x27; clinic"' in page
    assert 'value="coach@example.com"' in page
    form = {
        "kind": "clinic",
        "title": "Beginners' clinic, two courts",
        "coach_email": "",
        "coach_name": "Coach Carter",
        "capacity": "6",
        "price": "25.00",
        "registration_opens_at": timezone.localtime(program.registration_opens_at).strftime("%Y-%m-%dT%H:%M"),
        "registration_closes_at": timezone.localtime(program.starts_at + timedelta(hours=1)).strftime(
            "%Y-%m-%dT%H:%M"
        ),
        "cancel_cutoff_hours": "12",
    }
    refused = people["admin"].post(path, form)
    assert refused.status_code == 400
    assert "Registration closes by the time it begins" in refused.content.decode()

    form["registration_closes_at"] = timezone.localtime(program.registration_closes_at).strftime(
        "%Y-%m-%dT%H:%M"
    )
    saved = people["admin"].post(path, form)

    assert saved["Location"] == f"/programs/{program.pk}"
    program.refresh_from_db()
    assert (program.title, program.capacity, program.price, program.coach, program.coach_name) == (
        "Beginners' clinic, two courts",
        6,
        Decimal("25.00"),
        None,
        "Coach Carter",
    )
    assert {block.reason for block in program.blocks.all()} == {"Clinic: Beginners' clinic, two courts"}
