"""The framework's ceiling for bench/load.py: a bare Django view, served by gunicorn like the site,
answering the list that the site's GET /api/courts answered (read once from BARE_JSON), encoded
to JSON on each request as the site does. No middleware, no database, no DRF: what is left is
gunicorn, Django's request cycle and the JSON encoding.

    BARE_JSON=courts.json gunicorn --chdir bench bare_django:application
"""

import json
import os
from pathlib import Path

from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="bench-only",  # noqa: S106 - nothing here is signed
    ROOT_URLCONF=__name__,
    ALLOWED_HOSTS=["127.0.0.1"],
    MIDDLEWARE=[],
    INSTALLED_APPS=[],
)

from django.core.wsgi import get_wsgi_application  # noqa: E402 - needs the settings above
from django.http import JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402

COURTS = json.loads(Path(os.environ["BARE_JSON"]).read_text())


def courts(request):
    return JsonResponse(COURTS, safe=False)


urlpatterns = [path("api/courts", courts)]
application = get_wsgi_application()
