"""The programs' pages: what is open for registration, one program with its register and cancel
buttons, its participants for the coach and admins, and Manage Programs."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from accounts.guards import admin_required, login_required
from bookings.blocks import BlockConflicts
from kernel.errors import Conflict
from kernel.pagination import page_of

from .forms import ProgramDetailsForm, ProgramForm
from .models import Program, Registration
from .selectors import may_see_participants, open_programs, participants, programs_seen_by, registration_of
from .services import (
    coach_fields,
    program_create,
    program_message,
    program_price,
    program_register,
    program_update,
    refund_percent,
)


def program_list(request):
    """The programs open for registration, soonest first, a page at a time (anyone)."""
    page = page_of(request, open_programs(request.user))
    return render(request, "programs/list.html", {"page": page, "now": timezone.now()})


def program_detail(request, program_id: int):
    """One program: what, when, who coaches it, its places; the person's registration and what
    they may do with it."""
    program = get_object_or_404(programs_seen_by(request.user), pk=program_id)
    registration = registration_of(program, request.user)
    context: dict[str, object] = {
        "program": program,
        "registration": registration,
        "sees_participants": may_see_participants(program, request.user),
        "now": timezone.now(),
    }
    if request.user.is_authenticated and registration is None:
        context["your_price"] = program_price(program, request.user)
    if registration is not None:
        context["cancel"] = _cancel_props(registration, request)
    if request.user.is_authenticated and request.user.is_admin and program.status == Program.Status.OPEN:
        context["call_off"] = {
            "action": "cancel-program",
            "url": reverse("api-program", args=[program.pk]),
            "refund": f"Everyone registered is refunded in full and told, and its slots are freed: "
            f"{program.title} cannot be opened again.",
            "label": "Call the program off",
        }
    return render(request, "programs/detail.html", context)


def _cancel_props(registration: Registration, request) -> dict[str, str]:
    """The booking-action island's props to cancel the person's registration, saying what comes back."""
    if registration.status == Registration.Status.CONFIRMED and registration.price:
        percent = refund_percent(registration, by=request.user, now=timezone.now())
        refund = f"{percent}% of the ${registration.price} paid is refunded to your card."
    else:
        refund = "Nothing was paid for it, so nothing is refunded."
    waiting = registration.status == Registration.Status.WAITING
    return {
        "action": "cancel-registration",
        "url": reverse("api-registration", args=[registration.pk]),
        "refund": refund,
        "label": "Leave the waitlist" if waiting else "Cancel my registration",
    }


@login_required
def register(request, program_id: int):
    """Register: to the payment page of the place held, or back to the program with what happened."""
    program = get_object_or_404(programs_seen_by(request.user), pk=program_id)
    if request.method != "POST":
        return redirect("programs:detail", program.pk)
    try:
        registration = program_register(program=program, user=request.user)
    except Conflict as refusal:
        messages.error(request, str(refusal))
        return redirect("programs:detail", program.pk)
    if registration.status == Registration.Status.HELD:
        return redirect("payments:pay-registration", registration.pk)
    if registration.status == Registration.Status.WAITING:
        messages.success(
            request, "The program is full: you are on its waitlist, and told by e-mail when a place frees."
        )
    else:
        messages.success(request, f"You are registered for {program.title}.")
    return redirect("programs:detail", program.pk)


@login_required
def participants_page(request, program_id: int):
    """Who has a place, for the coach and admins (contact for admins), and a message to them all."""
    program = get_object_or_404(programs_seen_by(request.user), pk=program_id)
    if not may_see_participants(program, request.user):
        raise Http404
    status = 200
    if request.method == "POST":
        try:
            told = program_message(
                program=program,
                by=request.user,
                subject=request.POST.get("subject", ""),
                message=request.POST.get("message", ""),
            )
        except ValidationError as refused:
            errors, status = refused.message_dict, 400
        else:
            messages.success(
                request, f"Your message was sent to {told} participant{'s' if told != 1 else ''}."
            )
            return redirect("programs:participants", program.pk)
    else:
        errors = {}
    context = {
        "program": program,
        "participants": participants(program),
        "errors": errors,
        "sent": request.POST if status == 400 else {},
    }
    return render(request, "programs/participants.html", context, status=status)


@admin_required
def program_edit(request, program_id: int):
    """An admin changes a program's details (not its days, courts or slots), each refusal under its
    field."""
    program = get_object_or_404(programs_seen_by(request.user).select_related("coach"), pk=program_id)
    initial = {
        name: getattr(program, name) for name in ProgramDetailsForm.base_fields if hasattr(program, name)
    }
    initial["coach_email"] = program.coach.email if program.coach else ""
    form = ProgramDetailsForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                program_update(program=program, by=request.user, **coach_fields(dict(form.cleaned_data)))
            except ValidationError as refused:
                form.refused(refused)
            except Conflict as refusal:
                messages.error(request, str(refusal))
                return redirect("programs:detail", program.pk)
            else:
                messages.success(request, f"{program.title}: the changes are saved.")
                return redirect("programs:detail", program.pk)
        status = 400
    return render(request, "programs/edit.html", {"form": form, "program": program}, status=status)


@admin_required
def manage_programs(request):
    """Every program, the latest first, and the form to make one (its errors under its fields)."""
    form = ProgramForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = dict(form.cleaned_data)
            courts = list(fields.pop("courts"))
            try:
                program = program_create(by=request.user, courts=courts, **coach_fields(fields))
            except BlockConflicts as conflicts:
                form.add_error(None, str(conflicts))
            except ValidationError as refused:
                form.refused(refused)
            else:
                messages.success(
                    request,
                    f"{program} is open for registration from {program.registration_opens_at:%-d %B}.",
                )
                return redirect("programs:detail", program.pk)
        status = 400
    page = page_of(request, programs_seen_by(request.user).order_by("-starts_at", "-id"))
    return render(request, "programs/manage.html", {"form": form, "page": page}, status=status)
