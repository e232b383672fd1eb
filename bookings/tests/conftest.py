from datetime import UTC, date, datetime

import pytest
from django.utils import timezone


@pytest.fixture
def evening_in_new_york(settings, monkeypatch):
    """The club in New York at 21:30 on 1 June 2026, which is already 2 June in UTC."""
    settings.TIME_ZONE = "America/New_York"
    fixed = datetime(2026, 6, 2, 1, 30, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: fixed)
    return date(2026, 6, 1)
