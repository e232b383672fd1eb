"""The dashboard's sections: each app registers its pages here with the guard they need.

Until a capability is built, its section is a page with its heading in the dashboard layout.
"""

from django.shortcuts import render


def section(heading: str, guard):
    @guard
    def view(request, **kwargs):
        return render(request, "dashboard/section.html", {"heading": heading})

    return view


def island_page(request, *, heading: str, island: str, props: dict):
    """A dashboard page that is one island (an admin table with its forms), given its props."""
    return render(
        request, "dashboard/island_page.html", {"heading": heading, "island": island, "island_props": props}
    )
