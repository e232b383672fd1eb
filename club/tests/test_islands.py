import json
import re

import pytest
from django.conf import settings
from django.template import Context, Template


def render(source: str, **context) -> str:
    return Template("{% load islands %}" + source).render(Context(context))


def test_an_island_renders_its_mount_its_props_and_its_entry():
    html = render('{% island "toasts" props %}<p>fallback</p>{% endisland %}', props={"messages": ["<hi>"]})

    mount = re.search(
        r'<div data-island="toasts" data-props-id="(island-props-\d+)"><p>fallback</p></div>', html
    )
    assert mount
    props = re.search(rf'<script id="{mount.group(1)}" type="application/json">(.*?)</script>', html).group(1)
    assert json.loads(props) == {"messages": ["<hi>"]}
    assert "<hi>" not in props  # json_script escapes what could close the script element
    assert (
        len(re.findall(r'<script type="module" crossorigin="" src="/static/dist/assets/toasts-', html)) == 1
    )


def test_an_island_mounted_twice_loads_its_entry_once_with_props_for_each():
    html = render(
        '{% island "toasts" a %}{% endisland %}{% island "toasts" b %}{% endisland %}', a={"n": 1}, b={"n": 2}
    )

    assert html.count('data-island="toasts"') == 2
    assert html.count("/static/dist/assets/toasts-") == 1
    ids = re.findall(r'data-props-id="([^"]+)"', html)
    assert len(set(ids)) == 2


def test_islands_of_several_kinds_on_one_page_each_get_their_own_props_even_from_included_templates():
    # As on Booking Approvals: a table included by the page mounts an island in each row, and the
    # base template mounts the toasts after it.
    table = Template(
        '{% load islands %}{% for row in rows %}{% island "booking-action" row %}{% endisland %}{% endfor %}'
    )
    html = render(
        '{% island "payment" pay %}{% endisland %}'
        "{% include table %}"
        '{% island "toasts" toasts %}{% endisland %}',
        table=table,
        rows=[{"bookingId": 1}, {"bookingId": 2}],
        pay={"price": "20.00"},
        toasts={"messages": [{"kind": "success", "text": "Login Successful!"}]},
    )

    mounts = re.findall(r'<div data-island="([^"]+)" data-props-id="([^"]+)">', html)
    ids = [props_id for _, props_id in mounts]
    assert len(set(ids)) == len(ids) == 4
    props = {
        props_id: json.loads(
            re.search(rf'<script id="{props_id}" type="application/json">(.*?)</script>', html).group(1)
        )
        for props_id in ids
    }
    assert [(name, props[props_id]) for name, props_id in mounts] == [
        ("payment", {"price": "20.00"}),
        ("booking-action", {"bookingId": 1}),
        ("booking-action", {"bookingId": 2}),
        ("toasts", {"messages": [{"kind": "success", "text": "Login Successful!"}]}),
    ]
    assert html.count('<script id="') == 4  # one props block per mount, none repeated
    assert html.count("/static/dist/assets/booking-action-") == 1


@pytest.mark.django_db
def test_the_config_blob_carries_the_csrf_token_for_islands(client):
    html = client.get("/").content.decode()

    config = json.loads(
        re.search(r'<script id="island-config" type="application/json">(.*?)</script>', html).group(1)
    )
    assert config["csrfToken"]
    assert config["urls"] == {
        "session": "/api/session",
        "users": "/api/users",
        "login": "/login",
        "emailVerified": "/email-verified",
        "localStripeConfirm": "/local/stripe-confirm",  # local mode only (local/cards.py)
        "localAuthLinks": "/local/auth-links",  # local mode only (local/auth_links.py)
    }
    # The emulator and project of this test process (testing/environment.py).
    assert config["firebase"] == {
        "apiKey": "local-emulator",
        "authDomain": f"{settings.FIREBASE_PROJECT_ID}.firebaseapp.com",
        "projectId": settings.FIREBASE_PROJECT_ID,
        "emulatorUrl": f"http://{settings.FIREBASE_AUTH_EMULATOR_HOST}",
    }
