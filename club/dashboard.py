"""What the dashboard's pages share."""

from django.shortcuts import render


def island_page(request, *, heading: str, island: str, props: dict):
    """A dashboard page that is one island (an admin table with its forms), given its props."""
    return render(
        request, "dashboard/island_page.html", {"heading": heading, "island": island, "island_props": props}
    )
