from django.conf import settings
from django.middleware.csrf import get_token
from django.utils import timezone


def site(request):
    """What every layout needs: the site's name, the year for the footer, and the islands' config.

    `island_config` is the one global blob the islands read (rendered with json_script in
    base.html): the CSRF token and the API URLs, so no island hard-codes a URL.
    """
    return {
        "site_name": settings.SITE_NAME,
        "club_contact": settings.CLUB_CONTACT,
        "current_year": timezone.localdate().year,
        "island_config": lambda: {"csrfToken": get_token(request), "urls": {}},
    }
