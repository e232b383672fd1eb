import re

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

DOCS = ("api/schema/", "api/docs/")  # the schema's own pages


def api_routes() -> set[str]:
    """Every /api/ path the URL conf serves, in OpenAPI's {name} form."""
    routes = set()

    def walk(patterns, prefix=""):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and route.startswith("api/") and not route.startswith(DOCS):
                routes.add("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))

    walk(get_resolver().url_patterns)
    return routes


def test_the_schema_is_openapi_3_and_describes_every_api_endpoint(client):
    response = client.get("/api/schema/")

    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == api_routes()
    assert set(schema["components"]["securitySchemes"]) == {"firebaseIdToken", "sessionCookie"}


def test_the_schema_is_generated_without_a_warning_and_validates(tmp_path):
    # --fail-on-warn: a view the generator cannot read fully (a missing request or response) fails.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))

    assert (tmp_path / "schema.yml").read_text().startswith("openapi: 3")


def test_operations_document_their_error_answers(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)

    booking = schema["paths"]["/api/bookings"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409"} <= set(booking)
    intent = schema["paths"]["/api/create-payment-intent"]["post"]["responses"]
    assert "503" in intent


def test_the_docs_page_serves_swagger_ui_from_this_site(client):
    response = client.get("/api/docs/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "swagger-ui" in html
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn." not in html


def test_nullable_and_empty_fields_are_declared_so(client):
    """Found by fuzzing: a user who never signed in has no lastLogin, a user without a picture an
    empty image, a pending payment no paidAt, a person holding no plan no membership; the schema
    must allow what the API answers."""
    components = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]

    user = components["UserOutput"]["properties"]
    assert user["lastLogin"].get("nullable") is True
    assert user["memberSince"].get("nullable") is True
    assert "format" not in user["image"]
    assert components["PaymentOutput"]["properties"]["paidAt"].get("nullable") is True
    member = components["MemberWithMembershipOutput"]["properties"]
    assert member["createdAt"].get("nullable") is True
    # Someone holding no membership: null in the lists and in GET /api/memberships/me.
    assert member["membership"].get("nullable") is True
    assert components["UserWithMembershipOutput"]["properties"]["membership"].get("nullable") is True
    assert components["MyMembershipOutput"]["properties"]["membership"].get("nullable") is True
