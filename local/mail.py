"""The local mailbox (mailbox.py) as pages, to read what the site sent."""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.csp import CSP
from django.utils.http import content_disposition_header
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csp import csp_override

from . import mailbox

LISTED = 200  # the newest messages the page lists (and reads)


def _mail_or_404(mail_id: str) -> mailbox.Mail:
    mail = mailbox.find(settings.MAIL_DIR, mail_id)
    if mail is None:
        raise Http404("No such message")
    return mail


def mail_list(request):
    mails = mailbox.messages(settings.MAIL_DIR, limit=LISTED)
    return render(request, "local/mail.html", {"mails": mails})


def mail_detail(request, mail_id: str):
    return render(request, "local/mail_detail.html", {"mail": _mail_or_404(mail_id)})


@csp_override(
    # Django writes a directive given True alone, a value its stubs do not take.
    {"default-src": [CSP.NONE], "style-src": [CSP.UNSAFE_INLINE], "img-src": ["data:"], "sandbox": True}  # type: ignore[dict-item]
)
@xframe_options_sameorigin
def mail_html(request, mail_id: str):
    """The HTML part alone, shown in a sandboxed frame of the detail page: nothing in it runs."""
    return HttpResponse(_mail_or_404(mail_id).html)


def mail_attachment(request, mail_id: str, index: int):
    mail = _mail_or_404(mail_id)
    if index >= len(mail.attachments):
        raise Http404("No such attachment")
    attachment = mail.attachments[index]
    response = HttpResponse(attachment.content, content_type=attachment.content_type)
    response["Content-Disposition"] = content_disposition_header(True, attachment.filename)
    return response
