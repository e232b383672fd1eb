from django.conf import settings
from django.urls import path

from . import auth_links, cards, mail, stripe_clock

urlpatterns = [
    path("local/mail", mail.mail_list, name="local-mail"),
    path("local/mail/<str:mail_id>", mail.mail_detail, name="local-mail-detail"),
    path("local/mail/<str:mail_id>/html", mail.mail_html, name="local-mail-html"),
    path(
        "local/mail/<str:mail_id>/attachments/<int:index>", mail.mail_attachment, name="local-mail-attachment"
    ),
]
if settings.STRIPE_API_BASE:
    urlpatterns += [
        path("local/stripe-adapter.js", cards.adapter_script, name="local-stripe-adapter"),
        path("local/stripe-confirm", cards.LocalConfirmApi.as_view(), name="local-stripe-confirm"),
        path("local/stripe-clock", stripe_clock.stripe_clock, name="local-stripe-clock"),
        path(
            "local/stripe-clock/<int:membership_id>/renew",
            stripe_clock.stripe_clock_renew,
            name="local-stripe-clock-renew",
        ),
    ]
if settings.FIREBASE_AUTH_EMULATOR_HOST:
    urlpatterns.append(path("local/auth-links", auth_links.auth_links, name="local-auth-links"))
