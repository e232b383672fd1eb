import json
import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def vite_manifest() -> dict:
    return json.loads((settings.VITE_OUT_DIR / "manifest.json").read_text())


def test_pages_link_the_built_stylesheet_served_once_and_cached_for_ever(client):
    html = client.get("/").content.decode()
    css_url = re.search(r'<link rel="stylesheet" href="([^"]+)"', html).group(1)
    assert css_url == "/static/dist/" + vite_manifest()["src/styles/main.css"]["file"]

    response = client.get(css_url, HTTP_ACCEPT_ENCODING="br, gzip")

    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"
    assert response["Content-Encoding"] == "br"


def test_the_vite_build_is_not_hashed_a_second_time():
    django_manifest = json.loads((settings.STATIC_ROOT / "staticfiles.json").read_text())["paths"]
    for entry in vite_manifest().values():
        name = f"dist/{entry['file']}"
        assert django_manifest[name] == name


def test_the_projects_own_static_files_are_hashed_and_cached_for_ever(client):
    html = client.get("/").content.decode()
    logo_url = re.search(r'<link rel="icon" href="([^"]+)"', html).group(1)
    assert re.fullmatch(r"/static/img/logo\.[0-9a-f]{12}\.svg", logo_url)

    response = client.get(logo_url)

    assert response["Cache-Control"] == "max-age=315360000, public, immutable"


def test_an_unhashed_file_may_change_so_it_is_cached_briefly(client):
    response = client.get("/static/img/logo.svg")

    assert response.status_code == 200
    assert "immutable" not in response["Cache-Control"]


def test_pages_are_sent_compressed(client):
    response = client.get("/", HTTP_ACCEPT_ENCODING="gzip")

    assert response["Content-Encoding"] == "gzip"
