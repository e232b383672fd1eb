"""The profile page (docs/rules.md, Your account): name and photo, password, sign out everywhere;
and Django admin's "Change password", which points there."""

import html

import pytest
from django.conf import settings
from django.test import Client
from firebase_admin import auth

from accounts.identity import _app
from accounts.models import User

pytestmark = pytest.mark.django_db

COOKIE = settings.IDENTITY_COOKIE_NAME
ROLES = {"user": User.Role.USER, "member": User.Role.MEMBER, "admin": User.Role.ADMIN}


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def field_error(response, field: str) -> str:
    """The messages the page shows under a field of the profile form."""
    return " ".join(str(error) for error in response.context["form"].errors.get(field, []))


def test_a_signed_out_visitor_is_sent_to_sign_in(client):
    response = client.get("/dashboard/profile")

    assert response.status_code == 302
    assert response["Location"] == "/login?next=/dashboard/profile"
    assert client.post("/dashboard/profile", {"name": "X"})["Location"] == "/login?next=/dashboard/profile"


@pytest.mark.parametrize("kind", ROLES)
def test_each_role_changes_its_own_name_and_photo_and_nobody_elses(sign_in_as, kind):
    bystander = sign_in_as("bob@example.com", name="Bob Stone")
    client = sign_in_as(f"{kind}@example.com", ROLES[kind], name="Old Name")

    response = client.post(
        "/dashboard/profile", {"name": "New Name", "image": "https://img.example.com/me.png"}, follow=True
    )

    assert response.redirect_chain == [("/dashboard/profile", 302)]
    text = page_text(response)
    assert "Your profile has been saved." in text
    assert 'value="New Name"' in text
    assert 'src="https://img.example.com/me.png"' in text
    me = User.objects.get(email=f"{kind}@example.com")
    assert (me.name, me.image, me.role) == ("New Name", "https://img.example.com/me.png", ROLES[kind])
    assert User.objects.get(email="bob@example.com").name == "Bob Stone"
    assert "Bob Stone" in page_text(bystander.get("/dashboard/profile"))


def test_a_person_rates_their_level_and_may_leave_it_empty(sign_in_as):
    client = sign_in_as("ada@example.com", name="Ada Lovelace")

    client.post("/dashboard/profile", {"name": "Ada Lovelace", "level": "3.5"})
    assert str(User.objects.get().level) == "3.5"
    assert 'value="3.5"' in page_text(client.get("/dashboard/profile"))

    client.post("/dashboard/profile", {"name": "Ada Lovelace", "level": ""})
    assert User.objects.get().level is None


def test_the_form_changes_only_the_name_and_photo(sign_in_as):
    client = sign_in_as("ada@example.com")

    client.post(
        "/dashboard/profile",
        {"name": "Ada", "image": "", "role": "admin", "email": "ann@example.com", "is_active": "0"},
    )

    ada = User.objects.get()
    assert (ada.email, ada.role, ada.is_active, ada.image) == ("ada@example.com", "user", True, "")


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"name": "", "image": ""}, "name", "Please enter your name."),
        ({"name": "x" * 151, "image": ""}, "name", "Keep it to 150 characters."),
        ({"name": "Ada", "image": "not a url"}, "image", "Enter an https:// address of an image."),
        (
            {"name": "Ada", "image": "http://img.example.com/a.png"},
            "image",
            "Enter an https:// address of an image.",
        ),
        ({"name": "Ada", "image": "javascript:alert(1)"}, "image", "Enter an https:// address of an image."),
        ({"name": "Ada", "level": "0.5"}, "level", "Ensure this value is greater than or equal to 1.0."),
        ({"name": "Ada", "level": "7.5"}, "level", "Ensure this value is less than or equal to 7.0."),
        ({"name": "Ada", "level": "3.25"}, "level", "Give it to one decimal, like 3.5."),
        ({"name": "Ada", "level": "good"}, "level", "Enter a number."),
    ],
)
def test_bad_input_is_refused_with_the_message_under_its_field(sign_in_as, body, field, message):
    client = sign_in_as("ada@example.com", name="Ada Lovelace")

    response = client.post("/dashboard/profile", body)

    assert response.status_code == 200
    assert field_error(response, field) == message
    # Under the field (the list of its errors follows the input the form renders for it), and in
    # the summary at the top of the form, which links to the field.
    text = page_text(response)
    assert text.index(f'href="#id_{field}"') < text.index(message) < text.index(f'id="id_{field}"')
    assert text.index(f'id="id_{field}"') < text.rindex(message)
    assert f'<ul class="text-error text-sm" id="id_{field}_error">' in response.content.decode()
    assert User.objects.get().name == "Ada Lovelace"


def test_a_changed_name_is_kept_when_the_person_signs_in_again(sign_in_through_provider, emulator):
    client = sign_in_through_provider("ada@example.com", name="Ada Lovelace")
    client.post("/dashboard/profile", {"name": "Ada King", "image": ""})

    # The provider still has the old display name: the club's record is the person's own.
    again = Client().post(
        "/api/session",
        {"idToken": emulator.sign_in("ada@example.com")["idToken"]},
        content_type="application/json",
    )

    assert again.status_code == 200
    assert again.json()["name"] == "Ada King"


def test_a_password_account_gets_the_password_form(sign_in_through_provider):
    response = sign_in_through_provider("ada@example.com").get("/dashboard/profile")

    assert 'data-island="change-password"' in response.content.decode()
    assert response.context["password_props"] == {"email": "ada@example.com"}


def test_a_google_account_is_told_its_password_is_googles(emulator):
    account = emulator.sign_in_with_google("gia@example.com", name="Gia")
    client = Client()
    client.post("/api/session", {"idToken": account["idToken"]}, content_type="application/json")

    response = client.get("/dashboard/profile")

    assert response.status_code == 200
    assert 'data-island="change-password"' not in response.content.decode()
    assert "You sign in with Google, so your password is your Google account's" in page_text(response)


# --- Sign out everywhere ---------------------------------------------------------------------


def two_sessions(emulator) -> tuple[Client, Client, str]:
    """Ada signed in on two devices (two sign-ins, two session cookies); and her uid."""
    account = emulator.sign_up("ada@example.com", name="Ada Lovelace")
    devices = []
    for _ in range(2):
        device = Client()
        token = emulator.sign_in("ada@example.com")["idToken"]
        assert (
            device.post("/api/session", {"idToken": token}, content_type="application/json").status_code
            == 200
        )
        devices.append(device)
    return devices[0], devices[1], account["localId"]


def test_signing_out_everywhere_ends_the_other_sessions_at_once(emulator):
    laptop, phone, uid = two_sessions(emulator)
    phone_cookie = phone.cookies[COOKIE].value
    assert phone.get("/dashboard").status_code == 200  # the revocation check is now kept for a while

    response = laptop.post("/dashboard/profile/sign-out-everywhere", follow=True)

    assert response.redirect_chain == [("/login", 302)]
    assert "You have been signed out on every device." in page_text(response)
    assert laptop.get("/dashboard")["Location"] == "/login?next=/dashboard"
    # The phone's session stops at its very next request, within the revocation check's interval.
    refused = phone.get("/dashboard")
    assert refused["Location"] == "/login?next=/dashboard"
    assert refused.cookies[COOKIE].value == ""
    assert (
        Client(headers={"cookie": f"{COOKIE}={phone_cookie}"}).get("/api/bookings/pending").status_code == 401
    )
    # Firebase has revoked the account's credentials too: other sites and apps are signed out.
    assert auth.get_user(uid, app=_app()).tokens_valid_after_timestamp > 0
    refresh = emulator._call(
        "POST",
        "/securetoken.googleapis.com/v1/token?key=test-key",
        {"grant_type": "refresh_token", "refresh_token": emulator.sign_in("ada@example.com")["refreshToken"]},
    )
    assert refresh["id_token"]  # a new sign-in is not affected


def test_an_id_token_from_before_signing_out_everywhere_is_refused(emulator):
    laptop, _phone, _uid = two_sessions(emulator)
    old_token = emulator.sign_in("ada@example.com")["idToken"]

    laptop.post("/dashboard/profile/sign-out-everywhere")

    bearer = Client(headers={"authorization": f"Bearer {old_token}"})
    assert bearer.get("/api/bookings/pending").status_code == 401
    again = Client().post("/api/session", {"idToken": old_token}, content_type="application/json")
    assert again.status_code == 401


def test_signing_in_again_after_signing_out_everywhere_works(emulator):
    laptop, _phone, _uid = two_sessions(emulator)
    laptop.post("/dashboard/profile/sign-out-everywhere")
    emulator.next_second()  # credentials carry their time to the second: a new one is from a later second

    device = Client()
    token = emulator.sign_in("ada@example.com")["idToken"]
    assert device.post("/api/session", {"idToken": token}, content_type="application/json").status_code == 200

    assert device.get("/dashboard").status_code == 200


def test_signing_out_everywhere_needs_a_post_and_a_signed_in_person(emulator):
    laptop, _phone, _uid = two_sessions(emulator)

    assert laptop.get("/dashboard/profile/sign-out-everywhere").status_code == 405
    anonymous = Client().post("/dashboard/profile/sign-out-everywhere")
    assert anonymous["Location"] == "/login?next=/dashboard/profile/sign-out-everywhere"
    assert laptop.get("/dashboard").status_code == 200


def test_when_firebase_does_not_answer_nothing_is_signed_out(emulator, request):
    laptop, phone, _uid = two_sessions(emulator)
    assert phone.get("/dashboard").status_code == 200
    request.getfixturevalue("identity_provider_down")

    response = laptop.post("/dashboard/profile/sign-out-everywhere")

    assert response.status_code == 503
    assert "Nothing has changed: please try again shortly." in page_text(response)
    assert User.objects.get().signed_out_everywhere_at is None
    assert phone.get("/dashboard").status_code == 200


# --- Django admin ----------------------------------------------------------------------------


def test_django_admins_change_password_points_to_the_profile_page(sign_in_through_provider):
    ann = sign_in_through_provider("ann@example.com", User.Role.ADMIN)

    response = ann.get("/admin/password_change/", follow=True)

    assert response.redirect_chain == [("/dashboard/profile", 302)]
    assert "Passwords are kept by Firebase: change yours here, under Password." in page_text(response)
    assert 'data-island="change-password"' in response.content.decode()
