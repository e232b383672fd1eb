"""The players of a booking (docs/rules.md, Players): chosen by name, invited by e-mail, or named as
guests, as many as the court has places, changed by the organiser until the cut-off, and each told."""

import re
import uuid
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking, Player
from bookings.players import invitation_accept, invitation_by_token, players_set
from bookings.services import booking_cancel, policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from kernel.days import day
from kernel.errors import Conflict, Forbidden
from notifications.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com", name="Ada Lovelace")


@pytest.fixture
def mia():
    return User.objects.create_user("mia@example.com", name="Mia Park", role=User.Role.MEMBER)


@pytest.fixture
def zoe():
    return User.objects.create_user("zoe@example.com", name="Zoe Parker")


def in_five_days():
    """A day the players can still change (the cut-off is a day or so before a booking)."""
    return timezone.localdate() + timedelta(days=5)


@pytest.fixture
def booking(ada):
    return make_booking(user=ada, court=CourtFactory(name="Court 1", places=4), date=in_five_days())


def told(event: str) -> list[str]:
    """Who has a message of `event`: their address."""
    return sorted(
        notification.recipient.email if notification.recipient else notification.address
        for notification in Notification.objects.filter(event=event).select_related("recipient")
    )


def invitation_link(address: str) -> str:
    text = Notification.objects.get(event="player_invited", address=address).text
    return re.search(r"http\S+/invitations/(\S+)", text).group(1)


def test_the_organiser_chooses_people_by_name_invites_by_address_and_names_guests(booking, ada, mia, zoe):
    players = players_set(
        booking=booking, by=ada, people=[mia.public_id], invite=["Ken@Example.com"], guests=["Uncle Bob"]
    )

    assert [(player.kind, player.status, player.shown_name) for player in players] == [
        ("person", "playing", "Mia Park"),
        ("invited", "invited", "ken@example.com"),
        ("guest", "playing", "Uncle Bob"),
    ]
    assert told("player_added") == ["mia@example.com"]
    assert told("player_invited") == ["ken@example.com"]
    invitation = Notification.objects.get(event="player_invited")
    assert (
        invitation.subject
        == f"Ada Lovelace invites you to play: Court 1 on {day(booking.date)} at 08:00–09:00"
    )


def test_saving_the_same_players_again_changes_nothing_and_tells_nobody_again(booking, ada, mia):
    for _ in range(2):
        players_set(
            booking=booking, by=ada, people=[mia.public_id], invite=["ken@example.com"], guests=["Bob"]
        )

    assert booking.players.count() == 3
    assert Notification.objects.count() == 2 + 1  # Mia's, Ken's, and Ada's own request


def test_a_person_taken_off_is_told_and_a_guest_left_out_goes(booking, ada, mia, zoe):
    players_set(booking=booking, by=ada, people=[mia.public_id, zoe.public_id], invite=[], guests=["Bob"])

    players_set(booking=booking, by=ada, people=[zoe.public_id], invite=[], guests=[])

    assert [player.user for player in booking.players.all()] == [zoe]
    assert told("player_removed") == ["mia@example.com"]


@pytest.mark.parametrize(("places", "refused"), [(4, False), (3, True)])
def test_no_more_play_than_the_court_has_places_the_organiser_included(ada, mia, zoe, places, refused):
    booking = make_booking(user=ada, court=CourtFactory(name="Court 2", places=places), date=in_five_days())

    def choose():
        players_set(booking=booking, by=ada, people=[mia.public_id, zoe.public_id], invite=[], guests=["Bob"])

    if not refused:
        choose()
        assert booking.players.count() == 3
        return
    with pytest.raises(ValidationError) as refusal:
        choose()
    assert refusal.value.message_dict == {
        "players": ["Court 2 has places for 3, you included, and these are 4: take 1 off."]
    }
    assert not booking.players.exists()


@pytest.mark.parametrize(
    ("people", "invite", "guests", "field", "message"),
    [
        (
            "unknown",
            [],
            [],
            "people",
            "Some of the people chosen are no longer at the club: search for them again.",
        ),
        ("self", [], [], "people", "You play in your own booking already: choose the others."),
        ([], ["ada@example.com"], [], "invite", "That is your own address: invite the others."),
        ([], [], ["  "], "guests", "Give each guest a name."),
    ],
)
def test_a_list_that_cannot_be_is_refused_field_by_field(
    booking, ada, people, invite, guests, field, message
):
    if people == "unknown":
        people = [uuid.uuid4()]
    elif people == "self":
        people = [ada.public_id]

    with pytest.raises(ValidationError) as refusal:
        players_set(booking=booking, by=ada, people=people, invite=invite, guests=guests)

    assert refusal.value.message_dict == {field: [message]}


def test_only_the_organiser_or_an_admin_changes_the_players(booking, mia, zoe):
    with pytest.raises(Forbidden):
        players_set(booking=booking, by=zoe, people=[mia.public_id], invite=[], guests=[])

    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    players_set(booking=booking, by=admin, people=[mia.public_id], invite=[], guests=[])
    assert booking.players.get().user == mia


def test_the_players_stop_changing_at_the_cancellation_cut_off(booking, ada, mia):
    policy_update(cancel_cutoff_hours=24)
    Booking.objects.filter(pk=booking.pk).update(starts_at=timezone.now() + timedelta(hours=23))

    with pytest.raises(Conflict) as refusal:
        players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=[])

    assert str(refusal.value).startswith("The players could be changed until ")


def test_an_invitation_accepted_makes_a_player_and_tells_the_organiser_once(booking, ada, zoe):
    players_set(booking=booking, by=ada, people=[], invite=["zoe@example.com"], guests=[])
    token = invitation_link("zoe@example.com")

    invitation_accept(player=invitation_by_token(token), user=zoe)

    player = booking.players.get()
    assert (player.status, player.user) == ("playing", zoe)
    assert told("invitation_answered") == ["ada@example.com"]
    assert invitation_by_token(token) is None  # answered: the link opens nothing more


def test_someone_playing_already_cannot_take_a_second_place(booking, ada, mia):
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=["mia.other@example.com"], guests=[])

    with pytest.raises(Conflict, match=r"You play in this booking already\."):
        invitation_accept(player=invitation_by_token(invitation_link("mia.other@example.com")), user=mia)


def test_the_players_of_a_cancelled_booking_are_told(booking, ada, mia, zoe):
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=["ken@example.com"], guests=["Bob"])

    booking_cancel(booking=booking, by=ada)

    assert told("player_booking_ended") == ["mia@example.com"]
    assert Notification.objects.get(event="player_booking_ended").subject.startswith(
        "The game is off: Court 1"
    )


def test_a_player_is_never_told_twice_of_the_same_place(booking, ada, mia):
    """Each place is its own message: taken off and put back, the person is told both times."""
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=[])
    players_set(booking=booking, by=ada, people=[], invite=[], guests=[])
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=[])

    assert told("player_added") == ["mia@example.com", "mia@example.com"]
    assert told("player_removed") == ["mia@example.com"]
    assert Player.objects.count() == 1


# --- Hours played -----------------------------------------------------------------------------


@pytest.fixture
def one_hour_a_day():
    policy_update(daily_hours_limit=1)


def test_nobody_is_put_on_a_booking_past_the_hours_they_may_play(booking, ada, mia, one_hour_a_day):
    make_booking(user=mia, court=CourtFactory(name="Court 9"), date=booking.date)

    with pytest.raises(Conflict) as refusal:
        players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=[])

    assert str(refusal.value) == (
        f"Mia Park may hold at most 1 hours of courts a day, and they hold 1 on {day(booking.date)} "
        "already: Mia Park cannot play in this one."
    )
    assert not booking.players.exists()
    assert not Notification.objects.filter(event="player_added").exists()


def test_the_hours_played_in_someone_elses_booking_count_and_are_named(booking, ada, mia, one_hour_a_day):
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=[])

    with pytest.raises(Conflict) as refusal:
        make_booking(user=mia, court=CourtFactory(name="Court 9"), date=booking.date)

    assert str(refusal.value) == (
        f"You may hold at most 1 hours of courts a day, and you hold 1 on {day(booking.date)} already "
        f"(counting Ada Lovelace's booking of Court 1 on {day(booking.date)} at 08:00–09:00, which you "
        "play in): choose fewer slots or another day."
    )
    # Another day is free to them.
    assert make_booking(user=mia, court=CourtFactory(name="Court 9"), date=booking.date + timedelta(days=1))


def test_an_invitation_past_the_hours_one_may_play_is_refused(booking, ada, zoe, one_hour_a_day):
    make_booking(user=zoe, court=CourtFactory(name="Court 9"), date=booking.date)
    players_set(booking=booking, by=ada, people=[], invite=["zoe@example.com"], guests=[])

    with pytest.raises(Conflict) as refusal:
        invitation_accept(player=invitation_by_token(invitation_link("zoe@example.com")), user=zoe)

    assert str(refusal.value).endswith("already: you cannot play in this one.")
    assert booking.players.get().status == "invited"
