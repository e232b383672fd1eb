import pytest
from django.test import Client
from django.urls import reverse

from content.models import ContactMessage

pytestmark = pytest.mark.django_db

URL = reverse("content:support")
VALID = {"name": "Ada Lovelace", "email": "ada@example.com", "message": "The net on court 2 is torn."}


def test_a_valid_message_is_stored_and_thanked_for_with_an_empty_form(client):
    response = client.post(URL, VALID, follow=True)

    message = ContactMessage.objects.get()
    assert (message.name, message.email, message.message) == (VALID["name"], VALID["email"], VALID["message"])
    assert response.redirect_chain == [(URL, 302)]
    html = response.content.decode()
    assert "Your message has been sent" in html
    assert 'value="Ada Lovelace"' not in html
    # The toast host island is loaded only now that there is a message to show.
    assert 'data-island="toasts"' in html
    assert "/static/dist/assets/toasts-" in html


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("name", "", "Please enter your name."),
        ("name", "   ", "Please enter your name."),
        ("email", "", "Please enter your e-mail address."),
        ("email", "not-an-email", "Please enter a valid e-mail address."),
        ("message", "", "Please write your message."),
    ],
)
def test_an_invalid_message_shows_the_error_under_its_field_and_stores_nothing(client, field, value, error):
    response = client.post(URL, {**VALID, field: value})

    html = response.content.decode()
    assert response.status_code == 200
    assert ContactMessage.objects.count() == 0
    assert f'<ul class="text-error text-sm" id="id_{field}_error">' in html
    assert error in html.split(f'id="id_{field}_error">')[1].split("</ul>")[0]
    assert f'aria-describedby="id_{field}_error"' in html
    # What the visitor typed elsewhere is kept.
    if field != "message":
        assert VALID["message"] in html


def test_a_message_over_the_length_limit_is_refused(client):
    response = client.post(URL, {**VALID, "message": "x" * 5001})

    assert ContactMessage.objects.count() == 0
    assert "Ensure this value has at most 5000 characters" in response.content.decode()


def test_a_refused_message_lists_its_problems_at_the_top_of_the_form_linked_to_the_fields(client):
    html = client.post(URL, {"name": "", "email": "not-an-email", "message": "x" * 5001}).content.decode()

    summary = html[html.index('id="error-summary"') : html.index('<label class="font-medium" for="id_name"')]
    assert "3 problems" in summary
    assert 'href="#id_name"' in summary
    assert 'href="#id_email"' in summary
    assert "Message: Ensure this value has at most 5000 characters" in summary
    assert 'maxlength="5000"' in html
    assert 'maxlength="100"' in html


def test_the_form_requires_the_csrf_token():
    response = Client(enforce_csrf_checks=True).post(URL, VALID)

    assert response.status_code == 403
    assert ContactMessage.objects.count() == 0
