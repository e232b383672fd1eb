"""Every admin registered is one of kernel.admin's kinds, so that every fix made in Django admin is
one audit entry: made by a service, or recorded by AuditedAdmin."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import RequestFactory

from accounts.models import User
from audit.admin import AuditedAdmin
from kernel.admin import ReadOnlyAdmin, ServiceAdmin


def writes_nothing(model_admin, request) -> bool:
    return not (
        model_admin.has_add_permission(request)
        or model_admin.has_change_permission(request)
        or model_admin.has_delete_permission(request)
    )


def test_every_admin_is_read_only_or_audited():
    request = RequestFactory().get("/admin/")
    request.user = User(role=User.Role.ADMIN)

    unaudited = [
        model._meta.label
        for model, model_admin in admin.site._registry.items()
        if not isinstance(model_admin, ReadOnlyAdmin | ServiceAdmin | AuditedAdmin)
        and not writes_nothing(model_admin, request)  # the task queue's own admin, say
    ]

    assert unaudited == []
    assert Group not in admin.site._registry


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["anonymous", "owner", "other", "member"])
def test_nobody_but_an_admin_opens_any_of_them(people, kind):
    """Django admin is the admins': every registered model's list sends anyone else to sign in."""
    lists = [f"/admin/{model._meta.app_label}/{model._meta.model_name}/" for model in admin.site._registry]

    refused = {path: people[kind].get(path) for path in lists}

    assert {path: response.status_code for path, response in refused.items()} == dict.fromkeys(lists, 302)
    assert all("login" in response["Location"] for response in refused.values())
    assert people["admin"].get(lists[0]).status_code == 200
