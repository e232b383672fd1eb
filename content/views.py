import logging

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import DatabaseError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.guards import admin_required, login_required
from kernel.pages import island_page
from kernel.pagination import island_first_page, page_of
from kernel.ratelimit import limit_posts
from payments.coupons import active_coupons

from . import data
from .forms import ContactForm, ContactReplyForm
from .models import ContactMessage
from .selectors import announcement_list, contact_message_list
from .serializers import AnnouncementOutput
from .services import (
    announcements_mark_read,
    contact_message_create,
    contact_message_handle,
    contact_reply_send,
    newsletter_subscribe,
)

logger = logging.getLogger(__name__)
HOME_PAGE_COUPONS = 4


def home(request):
    try:
        coupons = list(active_coupons()[:HOME_PAGE_COUPONS])
    except DatabaseError:
        # The rest of the page does not need the database: show it, and say what is missing.
        logger.exception("Coupons could not be loaded for the home page.")
        coupons = None
    context = {
        "coupons": coupons,
        "hero_images": data.HERO_IMAGES,
        "testimonials": data.TESTIMONIALS,
        "blog_posts": data.BLOG_POSTS,
        "partners": data.PARTNERS,
    }
    return render(request, "content/home.html", context)


def blog_post(request, post_id: int):
    post = next((post for post in data.BLOG_POSTS if post.id == post_id), None)
    if post is None:
        raise Http404("No such post.")
    return render(request, "content/blog_post.html", {"post": post})


@require_POST
@limit_posts("newsletter")
def newsletter(request):
    """The newsletter form of the home page (a plain form: it works without JavaScript)."""
    email = request.POST.get("email", "").strip()
    try:
        validate_email(email)
    except ValidationError:
        messages.error(request, "Please enter a valid e-mail address to subscribe.")
    else:
        if newsletter_subscribe(email=email):
            messages.success(request, "Thank you for subscribing! Club news will reach you by e-mail.")
        else:
            messages.success(request, "You are already subscribed. Thank you!")
    return redirect("/#newsletter")


@limit_posts("support")
def support(request):
    form = ContactForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        contact_message_create(**form.cleaned_data)
        messages.success(request, "Thank you! Your message has been sent. We'll reply within 24 hours.")
        # Post/Redirect/Get: the form comes back empty and a reload does not send it twice.
        return redirect("content:support")
    return render(request, "content/support.html", {"form": form})


def forbidden(request):
    return render(request, "errors/403.html", status=403)


@login_required
def announcements(request):
    announcements_mark_read(user=request.user)
    return render(request, "content/announcements.html", {"page": page_of(request, announcement_list())})


@admin_required
def make_announcements(request):
    url = reverse("api-announcements")
    props = {"firstPage": island_first_page(announcement_list(), AnnouncementOutput, url), "createUrl": url}
    return island_page(request, heading="Make Announcements", island="announcements-admin", props=props)


@admin_required
def support_inbox(request):
    """The support messages: those waiting for a reply, or (?show=all) every one."""
    show_all = request.GET.get("show") == "all"
    page = page_of(request, contact_message_list(waiting_only=not show_all))
    return render(request, "content/support_inbox.html", {"page": page, "show_all": show_all})


@admin_required
def support_message(request, contact_id: int):
    """One support message, its replies, the reply form and the button that marks it handled."""
    contact = get_object_or_404(contact_message_list(), pk=contact_id)
    form = ContactReplyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            contact_reply_send(contact=contact, by=request.user, text=form.cleaned_data["text"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"Your reply was sent to {contact.email}.")
            return redirect("content:support-message", contact_id=contact.pk)
    replies = contact.replies.select_related("by")
    return render(
        request, "content/support_message.html", {"contact": contact, "replies": replies, "form": form}
    )


@admin_required
@require_POST
def support_message_handled(request, contact_id: int):
    contact = contact_message_handle(
        contact=get_object_or_404(ContactMessage, pk=contact_id), by=request.user
    )
    messages.success(request, f"The message of {contact.name} is marked handled.")
    return redirect("content:support-message", contact_id=contact.pk)
