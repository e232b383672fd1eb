"""Open matches (docs/rules.md, Open matches): opened by the organiser with the players wanted, a
level range and a deadline; listed on /matches and GET /api/matches by day, type and level; joined
while places are left (exactly one gets the last place, however many try at once); called off at
the deadline when not full, unless played anyway."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.matches import match_join, match_open, matches_call_off
from bookings.models import Booking, Match, Player
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from kernel.days import day
from kernel.errors import Conflict, Forbidden
from notifications.models import Notification
from testing.concurrency import at_once

pytestmark = pytest.mark.django_db


def in_days(days: int):
    return timezone.localdate() + timedelta(days=days)


@pytest.fixture
def clients(sign_in_as):
    """Ada organises; Mia (level 3.5) plays with her; Bob (level 4.0) and Max (no level) do not; Ann
    is an admin."""
    made = {
        "anonymous": Client(),
        "organiser": sign_in_as("ada@example.com", name="Ada Lovelace"),
        "player": sign_in_as("mia@example.com", User.Role.MEMBER, name="Mia Park"),
        "other": sign_in_as("bob@example.com", name="Bob Stone"),
        "member": sign_in_as("max@example.com", User.Role.MEMBER, name="Max Hill"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin"),
    }
    User.objects.filter(email="mia@example.com").update(level=Decimal("3.5"))
    User.objects.filter(email="bob@example.com").update(level=Decimal("4.0"))
    return made


def user(email: str) -> User:
    return User.objects.get(email=email)


@pytest.fixture
def booking(clients):
    """Ada's padel court in five days, with Mia playing."""
    court = CourtFactory(name="Padel 1", type="Padel", places=4)
    booking = make_booking(user=user("ada@example.com"), court=court, date=in_days(5))
    Player.objects.create(booking=booking, kind=Player.Kind.PERSON, user=user("mia@example.com"))
    return booking


def opened(booking: Booking, **fields) -> Match:
    return match_open(
        booking=booking,
        by=booking.user,
        **{"places": 4, "deadline": timezone.now() + timedelta(days=1), **fields},
    )


# --- Opening ---------------------------------------------------------------------------------


def test_the_organiser_opens_a_match_with_the_places_the_levels_and_a_deadline(booking):
    match = opened(booking, level_min=Decimal("3.0"), level_max=Decimal("4.5"))

    assert (match.places, match.level_min, match.level_max, match.play_anyway) == (
        4,
        Decimal("3.0"),
        Decimal("4.5"),
        False,
    )


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"places": 5}, "places", "Padel 1 has places for 4."),
        ({"places": 2}, "places", "2 play already: open at least one more place."),
        ({"deadline": timezone.now() - timedelta(minutes=1)}, "deadline", "The deadline is still to come."),
        ({"deadline": timezone.now() + timedelta(days=10)}, "deadline", "The players change until"),
        (
            {"level_min": Decimal("4.0"), "level_max": Decimal("3.0")},
            "levelMax",
            "The highest level is at least",
        ),
    ],
)
def test_a_match_that_cannot_be_is_refused_under_its_field(booking, fields, field, message):
    with pytest.raises(ValidationError) as refused:
        opened(booking, **fields)

    assert refused.value.message_dict[field][0].startswith(message)
    assert not Match.objects.exists()


def test_only_the_organiser_opens_their_booking_as_a_match(booking):
    with pytest.raises(Forbidden):
        match_open(
            booking=booking, by=user("mia@example.com"), places=4, deadline=timezone.now() + timedelta(days=1)
        )


# --- Joining ---------------------------------------------------------------------------------


def test_a_person_of_the_right_level_joins_and_the_organiser_is_told(booking):
    match = opened(booking, level_min=Decimal("3.0"), level_max=Decimal("4.5"))

    player = match_join(match=match, user=user("bob@example.com"))

    assert (player.kind, player.user.email) == ("person", "bob@example.com")
    told = Notification.objects.filter(event="match_joined").values_list("recipient__email", "subject")
    game = f"Padel 1 on {day(booking.date)} at 08:00–09:00"
    assert list(told) == [("ada@example.com", f"Bob Stone joined your match: {game}")]


@pytest.mark.parametrize(
    ("email", "level_max", "message"),
    [
        ("bob@example.com", Decimal("3.5"), "This match is for levels 3.0–3.5, and yours is 4.0."),
        ("max@example.com", Decimal("4.5"), "set your level on My Profile to join it"),
        ("mia@example.com", Decimal("4.5"), "You play in this match already."),
        ("ada@example.com", Decimal("4.5"), "You play in this match already."),
    ],
)
def test_a_person_outside_the_levels_or_playing_already_cannot_join(booking, email, level_max, message):
    match = opened(booking, level_min=Decimal("3.0"), level_max=level_max)

    with pytest.raises(Conflict, match=message):
        match_join(match=match, user=user(email))

    assert booking.players.count() == 1


def test_a_full_match_and_one_past_its_deadline_take_nobody(clients, booking):
    match = opened(booking, places=3)
    match_join(match=match, user=user("bob@example.com"))
    page = clients["organiser"].get(f"/dashboard/bookings/{booking.pk}").content.decode()
    assert "Full: all 3 places are taken" in page

    with pytest.raises(Conflict, match="This match is full"):
        match_join(match=match, user=user("max@example.com"))
    Match.objects.filter(pk=match.pk).update(places=4, deadline=timezone.now())
    with pytest.raises(Conflict, match="no longer open"):
        match_join(match=match, user=user("max@example.com"))


def test_joining_counts_the_hours_the_person_may_play(booking):
    policy_update(daily_hours_limit=1)
    bob = user("bob@example.com")
    make_booking(user=bob, court=CourtFactory(name="Padel 2"), date=booking.date)

    with pytest.raises(Conflict, match="1 hours"):
        match_join(match=opened(booking), user=bob)


@pytest.mark.django_db(transaction=True)
def test_exactly_one_of_twenty_people_joining_at_once_gets_the_last_place(booking):
    match = opened(booking, places=3)
    joiners = [User.objects.create_user(f"joiner{n}@example.com", name=f"Joiner {n}") for n in range(20)]

    answers = at_once([lambda person=person: match_join(match=match, user=person) for person in joiners])

    assert sum(isinstance(answer, Player) for answer in answers) == 1
    assert {str(answer) for answer in answers if isinstance(answer, Exception)} == {
        "This match is full: its last place was just taken."
    }
    assert booking.players.count() == 2


# --- The deadline ----------------------------------------------------------------------------


def test_a_match_not_full_at_its_deadline_is_called_off_and_everyone_told(booking):
    match = opened(booking)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    assert matches_call_off() == 1
    assert matches_call_off() == 0

    booking.refresh_from_db()
    assert booking.status == Booking.Status.CANCELLED
    assert booking.history.last().reason == "The match did not fill by its deadline."
    told = Notification.objects.exclude(event__in=["booking_requested", "requests_waiting"]).values_list(
        "event", "recipient__email"
    )
    assert sorted(told) == [
        ("booking_cancelled", "ada@example.com"),
        ("player_booking_ended", "mia@example.com"),
    ]


@pytest.mark.parametrize("how", ["full", "played anyway", "deadline to come"])
def test_a_full_match_one_played_anyway_and_one_still_open_go_ahead(booking, how):
    match = opened(booking, places=3 if how == "full" else 4, play_anyway=how == "played anyway")
    if how == "full":
        match_join(match=match, user=user("bob@example.com"))
    if how != "deadline to come":
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    assert matches_call_off() == 0
    booking.refresh_from_db()
    assert booking.status == Booking.Status.PENDING


# --- The API and the pages, per caller -------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [
        ("anonymous", 401),
        ("organiser", 200),
        ("player", 403),
        ("other", 404),
        ("member", 404),
        ("admin", 200),
    ],
)
def test_the_organiser_and_the_admins_open_a_booking_as_a_match(clients, booking, kind, status_code):
    deadline = (timezone.now() + timedelta(days=1)).isoformat()

    response = clients[kind].put(
        f"/api/bookings/{booking.pk}/match",
        {"places": 4, "deadline": deadline, "levelMin": "3.0", "levelMax": "4.5"},
        content_type="application/json",
    )

    assert response.status_code == status_code
    assert Match.objects.exists() == (status_code == 200)
    if status_code == 200:
        assert (response.json()["placesLeft"], response.json()["levels"]) == (2, "3.0–4.5")


def test_a_bad_match_is_a_400_with_a_message_per_field(clients, booking):
    response = clients["organiser"].put(
        f"/api/bookings/{booking.pk}/match", {"places": 1, "levelMin": "9"}, content_type="application/json"
    )

    assert response.status_code == 400
    assert set(response.json()) >= {"places", "deadline", "levelMin"}


@pytest.mark.parametrize(("kind", "sees_players"), [("anonymous", False), ("other", True), ("admin", True)])
def test_anyone_lists_the_open_matches_and_those_signed_in_see_who_plays(
    clients, booking, kind, sees_players
):
    opened(booking, level_min=Decimal("3.0"), level_max=Decimal("4.5"))
    other_day = make_booking(
        user=user("bob@example.com"), court=CourtFactory(name="Tennis 1", type="Tennis"), date=in_days(6)
    )
    match_open(booking=other_day, by=other_day.user, places=2, deadline=timezone.now() + timedelta(days=1))

    everything = clients[kind].get("/api/matches").json()
    padel = clients[kind].get("/api/matches", {"type": "Padel", "level": "4.0"}).json()

    assert [match["court"] for match in everything] == ["Padel 1", "Tennis 1"]
    assert [match["court"] for match in padel] == ["Padel 1"]
    # A match without a level range takes every level.
    assert [match["court"] for match in clients[kind].get("/api/matches", {"level": "5.0"}).json()] == [
        "Tennis 1"
    ]
    assert (
        clients[kind].get("/api/matches", {"date": in_days(6).isoformat()}).json()[0]["court"] == "Tennis 1"
    )
    assert padel[0]["players"] == (["Ada Lovelace", "Mia Park"] if sees_players else [])


def test_the_list_of_matches_costs_the_same_queries_however_many(clients, django_assert_max_num_queries):
    for n in range(8):
        court = CourtFactory(name=f"Court {n}")
        game = make_booking(
            user=User.objects.create_user(f"o{n}@example.com", name=f"O {n}"), court=court, date=in_days(5)
        )
        Player.objects.create(booking=game, kind=Player.Kind.GUEST, name="A guest")
        match_open(booking=game, by=game.user, places=4, deadline=timezone.now() + timedelta(days=1))

    with django_assert_max_num_queries(6):
        assert len(clients["other"].get("/api/matches").json()) == 8
    with django_assert_max_num_queries(9):
        page = clients["other"].get("/matches").content.decode()
    assert page.count("Join the match on") == 8


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [
        ("anonymous", 401),
        ("organiser", 204),
        ("player", 403),
        ("other", 404),
        ("member", 404),
        ("admin", 204),
    ],
)
def test_the_organiser_and_the_admins_close_a_match(clients, booking, kind, status_code):
    opened(booking)

    response = clients[kind].delete(f"/api/bookings/{booking.pk}/match")

    assert response.status_code == status_code
    assert Match.objects.exists() == (status_code != 204)


@pytest.mark.parametrize("kind", ["anonymous", "organiser", "player", "other", "member", "admin"])
def test_every_caller_lists_the_open_matches(clients, booking, kind):
    opened(booking)

    response = clients[kind].get("/api/matches")

    assert response.status_code == 200
    assert [(match["court"], match["placesLeft"]) for match in response.json()] == [("Padel 1", 2)]
    assert response["X-Total-Count"] == "1"


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [
        ("anonymous", 401),
        ("organiser", 409),
        ("player", 409),
        ("other", 201),
        ("member", 201),
        ("admin", 201),
    ],
)
def test_a_signed_in_person_joins_a_match(clients, booking, kind, status_code):
    match = opened(booking)

    response = clients[kind].post(f"/api/matches/{match.pk}/join")

    assert response.status_code == status_code
    if status_code == 201:
        assert response.json() == {"bookingId": booking.pk, "payUrl": ""}


def test_a_private_booking_cannot_be_joined_or_seen_by_a_stranger(clients, booking):
    assert clients["other"].post(f"/api/matches/{booking.pk}/join").status_code == 404
    assert clients["other"].get(f"/dashboard/bookings/{booking.pk}").status_code == 404
    assert clients["other"].get("/api/matches").json() == []


def test_the_matches_page_joins_and_opens_the_game(clients, booking):
    match = opened(booking)

    page = clients["anonymous"].get("/matches").content.decode()
    assert "Sign in to join" in page
    assert "Mia Park" not in page
    response = clients["other"].post(f"/matches/{match.pk}/join", follow=True)

    assert response.redirect_chain[-1][0] == f"/dashboard/bookings/{booking.pk}"
    assert "You joined the match" in response.content.decode()
    assert booking.players.filter(user__email="bob@example.com").exists()


def test_the_organiser_opens_and_closes_the_match_on_the_bookings_page(clients, booking):
    page = clients["organiser"].get(f"/dashboard/bookings/{booking.pk}").content.decode()
    assert "Open as a match" in page
    deadline = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")

    opened_page = clients["organiser"].post(
        f"/dashboard/bookings/{booking.pk}/match", {"places": "4", "deadline": deadline}, follow=True
    )
    assert "Your booking is an open match" in opened_page.content.decode()
    refused = clients["organiser"].post(
        f"/dashboard/bookings/{booking.pk}/match", {"places": "9", "deadline": deadline, "level_min": "8"}
    )
    assert refused.status_code == 400
    errors = re.findall(
        r'<ul class="text-error text-sm" id="id_(\w+)_error">\s*<li>(.*?)</li>', refused.content.decode()
    )
    assert errors == [("level_min", "A level is from 1.0 to 7.0.")]
    refused = clients["organiser"].post(
        f"/dashboard/bookings/{booking.pk}/match", {"places": "9", "deadline": deadline}
    )
    assert re.findall(r'id="id_(\w+)_error">\s*<li>(.*?)</li>', refused.content.decode()) == [
        ("places", "Padel 1 has places for 4.")
    ]
    assert Match.objects.get().places == 4
    clients["organiser"].post(f"/dashboard/bookings/{booking.pk}/match", {"close": "1"})
    assert not Match.objects.exists()
    assert (
        "Open as a match" not in clients["player"].get(f"/dashboard/bookings/{booking.pk}").content.decode()
    )
