"""The logs hold no secret that stands in an address: the site under gunicorn, as `make run` and
production start it (gunicorn.conf.py), asked for a calendar feed and an unsubscribe link, writes
neither the feed's secret nor the token, in its access log or in its own lines."""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.core import signing
from django.db import connection

from accounts.models import User
from bookings.services import calendar_feed_get
from notifications.services import UNSUBSCRIBE_SALT, unsubscribe_token
from scripts import local_stack

# It starts the site's own processes (gunicorn, the worker, manage.py): the integration layer.
pytestmark = pytest.mark.integration


def fetch(url: str, *, data: bytes | None = None, referrer: str = "") -> int:
    headers = {"Referer": referrer} if referrer else {}
    request = urllib.request.Request(url, data=data, headers=headers)  # noqa: S310 - the local site
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - the local site
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.django_db(transaction=True)
def test_gunicorn_logs_no_calendar_secret_and_no_unsubscribe_token(tmp_path):
    ada = User.objects.create_user("ada@example.com")
    secret = calendar_feed_get(user=ada).secret
    token = unsubscribe_token(user=ada, optional="reminders")
    refused = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object({"user": ada.pk, "optional": "x"})
    database = settings.DATABASES["default"]
    port = local_stack.free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "LOCAL_MODE": "true",
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{connection.settings_dict['NAME']}",
    }
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    log = tmp_path / "gunicorn.log"
    with log.open("w") as output:
        # As the Makefile runs it: the access log on standard output.
        app = subprocess.Popen(
            [gunicorn, "club.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1", "--access-logfile", "-"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=output,
            stderr=output,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 30
            while not local_stack.answering(f"{url}/healthz"):
                assert app.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)

            assert fetch(f"{url}/calendar/{secret}.ics") == 200
            assert fetch(f"{url}/unsubscribe/{token}") == 200
            page = f"{url}/unsubscribe/{token}"
            assert fetch(page, data=b"List-Unsubscribe=One-Click", referrer=page) == 200
            assert fetch(f"{url}/unsubscribe/{refused}") == 200
            assert fetch(f"{url}/unsubscribe/{refused}", data=b"") == 400  # logged by Django as a bad request
        finally:
            local_stack.stop(app)

    written = log.read_text()
    assert '"GET /calendar/[secret].ics HTTP/1.1" 200' in written
    assert '"POST /unsubscribe/[secret] HTTP/1.1" 200' in written
    assert "Bad Request: /unsubscribe/[secret]" in written
    for kept in (secret, token, refused):
        assert kept not in written
