"""GET and PUT /api/bookings/{id}/players, the booking's page and the invitation page, for each kind
of caller: anonymous, the organiser, a player, another person, a member, an admin."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.players import players_set
from bookings.services import booking_approve, booking_confirm, policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from notifications.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def callers(sign_in_as):
    return {
        "anonymous": Client(),
        "organiser": sign_in_as("ada@example.com", name="Ada Lovelace"),
        "player": sign_in_as("zoe@example.com", name="Zoe Parker"),
        "other": sign_in_as("bob@example.com", name="Bob Stone"),
        "member": sign_in_as("mia@example.com", User.Role.MEMBER, name="Mia Park"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin"),
    }


@pytest.fixture
def booking(callers):
    ada, zoe = User.objects.get(email="ada@example.com"), User.objects.get(email="zoe@example.com")
    booking = make_booking(
        user=ada, court=CourtFactory(name="Court 1", places=4), date=timezone.localdate() + timedelta(days=5)
    )
    players_set(booking=booking, by=ada, people=[zoe.public_id], invite=["ken@example.com"], guests=["Bob"])
    return booking


def url(booking) -> str:
    return f"/api/bookings/{booking.pk}/players"


@pytest.mark.parametrize(
    ("caller", "status", "invited_shown_as", "changeable"),
    [
        ("anonymous", 401, None, None),
        ("organiser", 200, "ken@example.com", True),
        ("player", 200, "Invited, not yet answered", False),
        ("other", 404, None, None),
        ("member", 404, None, None),
        ("admin", 200, "ken@example.com", True),
    ],
)
def test_who_plays_is_shown_to_the_organiser_the_players_and_the_admins(
    callers, booking, caller, status, invited_shown_as, changeable
):
    response = callers[caller].get(url(booking))

    assert response.status_code == status
    if status != 200:
        return
    answer = response.json()
    assert (answer["places"], answer["organiser"], answer["changeable"]) == (4, "Ada Lovelace", changeable)
    assert [(player["name"], player["kind"], player["status"]) for player in answer["players"]] == [
        ("Zoe Parker", "person", "playing"),
        (invited_shown_as, "invited", "invited"),
        ("Bob", "guest", "playing"),
    ]
    zoe = User.objects.get(email="zoe@example.com")
    assert answer["players"][0]["person"] == str(zoe.public_id)


@pytest.mark.parametrize(
    ("caller", "status"),
    [
        ("anonymous", 401),
        ("organiser", 200),
        ("player", 403),
        ("other", 404),
        ("member", 404),
        ("admin", 200),
    ],
)
def test_the_organiser_and_the_admins_change_the_players(callers, booking, caller, status):
    mia = User.objects.get(email="mia@example.com")

    response = callers[caller].put(
        url(booking), {"people": [str(mia.public_id)], "guests": ["Bob"]}, content_type="application/json"
    )

    assert response.status_code == status
    names = [player.shown_name for player in booking.players.select_related("user")]
    assert names == (["Bob", "Mia Park"] if status == 200 else ["Zoe Parker", "ken@example.com", "Bob"])


def test_a_bad_list_is_a_400_with_a_message_per_field(callers, booking):
    response = callers["organiser"].put(
        url(booking),
        {"people": ["not-an-id"], "invite": ["not an address"], "guests": ["a\nb"]},
        content_type="application/json",
    )

    assert response.status_code == 400
    assert set(response.json()) == {"people", "invite", "guests"}


def test_too_many_players_is_a_400_under_players(callers, booking):
    response = callers["organiser"].put(
        url(booking), {"guests": ["One", "Two", "Three", "Four"]}, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "players": ["Court 1 has places for 4, you included, and these are 5: take 1 off."]
    }


@pytest.mark.parametrize(
    ("caller", "status"),
    [("organiser", 200), ("player", 200), ("other", 404), ("member", 404), ("admin", 200)],
)
def test_the_bookings_page_shows_who_plays_to_those_who_may_see_it(callers, booking, caller, status):
    response = callers[caller].get(f"/dashboard/bookings/{booking.pk}")

    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "Zoe Parker" in page
        assert "Bob" in page
        # The island that changes them is the organiser's and the admins'.
        assert ('data-island="players"' in page) == (caller != "player")
        # A player sees the organiser by name in the history, never by address.
        assert ("ada@example.com" in page) == (caller == "admin")


def invitation_path() -> str:
    text = Notification.objects.get(event="player_invited").text
    return re.search(r"http://[^/\s]+(/invitations/\S+)", text).group(1)


def test_an_invitation_shows_the_game_and_is_accepted_once_signed_in(callers, booking):
    path = invitation_path()

    page = callers["anonymous"].get(path)
    assert page.status_code == 200
    assert "Ada Lovelace invites you to play" in page.content.decode()
    signed_out = callers["anonymous"].post(path, {"answer": "accept"})
    assert signed_out.status_code == 302
    assert signed_out["Location"].startswith("/login?next=")

    accepted = callers["other"].post(path, {"answer": "accept"})

    assert accepted.status_code == 302
    assert accepted["Location"] == f"/dashboard/bookings/{booking.pk}"
    bob = User.objects.get(email="bob@example.com")
    assert booking.players.get(kind="invited").user == bob
    assert callers["other"].get(f"/dashboard/bookings/{booking.pk}").status_code == 200
    assert callers["anonymous"].get(path).status_code == 404  # answered


def test_an_invitation_is_declined_by_whoever_holds_the_link(callers, booking):
    path = invitation_path()

    response = callers["anonymous"].post(path, {"answer": "decline"})

    assert response.status_code == 200
    assert "You have declined" in response.content.decode()
    assert not booking.players.filter(kind="invited").exists()
    assert Notification.objects.get(event="invitation_answered").recipient.email == "ada@example.com"


def test_a_made_up_invitation_opens_nothing(callers):
    response = callers["anonymous"].get("/invitations/made-up:token")

    assert response.status_code == 404
    assert "This invitation is no longer open" in response.content.decode()


def test_a_player_finds_the_booking_on_my_bookings_with_whose_it_is(callers, booking):
    link = f'href="/dashboard/bookings/{booking.pk}"'

    page = callers["player"].get("/dashboard/my-bookings").content.decode()

    assert link in page
    assert "You play: Ada Lovelace organises it." in page
    assert link not in callers["other"].get("/dashboard/my-bookings").content.decode()


def test_a_confirmed_booking_is_in_each_players_calendar_feed(callers, booking):
    ada, zoe = booking.user, User.objects.get(email="zoe@example.com")
    later = make_booking(user=ada, court=booking.court, date=booking.date, slots=booking.court.slots[1:2])
    players_set(booking=later, by=ada, people=[zoe.public_id], invite=[], guests=[])
    booking_confirm(booking=booking_approve(booking=later, by=ada), by=ada)

    feed = callers["player"].get("/api/calendar").json()["url"].removeprefix("http://testserver")
    served = Client().get(feed).content.decode()

    assert f"booking-{later.pk}@" in served
    assert f"booking-{booking.pk}@" not in served  # played in, but never confirmed


@pytest.mark.parametrize(
    ("caller", "state", "players"),
    [
        ("organiser", "yours", ["Zoe Parker", "Bob (guest)"]),
        ("player", "yours", ["Ada Lovelace", "Bob (guest)"]),
        ("other", "taken", []),
        ("anonymous", "taken", []),
    ],
)
def test_the_day_sheet_shows_who_plays_to_the_organiser_and_the_players(
    callers, booking, caller, state, players
):
    answer = callers[caller].get("/api/schedule", {"date": booking.date.isoformat()}).json()

    [cell] = [cell for court in answer["courts"] for cell in court["cells"] if cell["slot"] == "08:00-09:00"]
    assert (cell["state"], cell["players"]) == (state, players)
    assert (cell["bookingId"] == booking.pk) == (state == "yours")
    page = callers[caller].get("/schedule", {"date": booking.date.isoformat()}).content.decode()
    assert (f"Yours, with {', '.join(players)}" in page) == bool(players)


def test_my_bookings_costs_the_same_queries_however_many_one_plays_in(callers, booking):
    ada, zoe = booking.user, User.objects.get(email="zoe@example.com")

    def queries() -> int:
        with CaptureQueriesContext(connection) as made:
            assert callers["player"].get("/dashboard/my-bookings").status_code == 200
        return len(made)

    one = queries()
    policy_update(open_bookings_limit=10)
    for days in range(1, 6):
        later = make_booking(user=ada, court=booking.court, date=booking.date + timedelta(days=days))
        players_set(booking=later, by=ada, people=[zoe.public_id], invite=[], guests=[])

    assert queries() == one
