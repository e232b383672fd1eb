from django.shortcuts import render

from .selectors import court_page


def court_list(request):
    page = court_page(page_number=request.GET.get("page"))
    context = {"page": page, "page_numbers": page.paginator.get_elided_page_range(page.number)}
    return render(request, "courts/court_list.html", context)
