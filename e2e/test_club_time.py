"""The islands show a moment as the server writes it, in the club's time zone (the API's labels,
kernel.days.DateLabel)."""

from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from e2e.journeys import sign_in
from kernel.days import when

pytestmark = pytest.mark.browser


def test_all_users_created_at_reads_as_the_server_writes_it_in_the_club_s_time_zone(
    site: str, page: Page, settings
):
    settings.TIME_ZONE = "America/New_York"
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    # 02:05 UTC is still the evening before in New York: a browser in UTC would write March 4.
    created = datetime(2026, 3, 4, 2, 5, tzinfo=UTC)
    User.objects.create_user("bob@example.com")
    User.objects.filter(email="bob@example.com").update(created_at=created)

    sign_in(page, site, "ann@example.com", "/dashboard/manage-users")

    row = page.get_by_role("row").filter(has_text="bob@example.com")
    expect(row.locator('td[data-label="Created At"]')).to_have_text(when(created))
    assert when(created) == "March 3, 2026, 9:05 PM"
