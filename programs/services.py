"""Programs (docs/rules.md, Programs): an admin makes a lesson, clinic, camp or event, whose
courts' slots blocks hold; people register for its places while registration is open, each place
held for its payment; a full program keeps a waitlist, whose first is offered each place that
frees; a participant who cancels is refunded by the program's own cut-off; a program called off
refunds everyone in full. The program's row lock orders everything that counts its places."""

from collections.abc import Callable
from datetime import date as Date
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from accounts.models import User
from accounts.selectors import user_by_email
from audit.services import audit_record, audited_update
from bookings.blocks import REFUSE, block_create, block_delete
from bookings.rules import rules_for
from bookings.selectors import policy_get
from bookings.slots import slots_refusal
from courts.models import Court
from kernel.api import camel_case
from kernel.days import when
from kernel.errors import Conflict, Forbidden
from kernel.money import discounted
from kernel.slots import Slot
from kernel.text import one_line_refusal
from memberships.models import Plan

from . import notices
from .models import Program, Registration
from .selectors import participants, places_taken

Status = Registration.Status
# A program's fields as the audit trail keeps them.
AUDITED = ["title", "capacity", "price", "registration_opens_at", "registration_closes_at", "members_only"]
# Block errors under the names of the program's fields.
BLOCK_FIELDS = {"date": "firstDate", "courtId": "courtIds", "reason": "title"}


def program_price(program: Program, user: User) -> Decimal:
    """What `user` pays for a place: the program's price, less the percent off their plan gives
    (a plan's fixed member price is a court slot's, not a program's)."""
    plan = rules_for(user).plan
    if (
        plan is not None
        and plan.member_price_kind == Plan.MemberPriceKind.PERCENT
        and plan.member_price_value
    ):
        return discounted(program.price, int(plan.member_price_value))
    return program.price


def coach_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """A program's fields with the coach named by e-mail (`coach_email`) as the person of the club
    it belongs to; an address given empty: no person of the club coaches it."""
    if "coach_email" not in fields:
        return fields
    coach = None
    if email := fields.pop("coach_email"):
        coach = user_by_email(email)
        if coach is None:
            raise ValidationError({"coachEmail": "Nobody of the club has this address."})
    return {**fields, "coach": coach}


def _check(fields: dict[str, Any]) -> dict[str, str]:
    """The refusals of a program's fields (API names) that are not its blocks' own: all of them, as
    they are made or will be once changed."""
    errors: dict[str, str] = {}
    title = fields.get("title")
    if title is not None:
        if not title.strip():
            errors["title"] = "Give it a title: people find it by it."
        elif refusal := one_line_refusal(title):
            errors["title"] = refusal
    opens, closes = fields.get("registration_opens_at"), fields.get("registration_closes_at")
    if opens and closes and closes <= opens:
        errors["registrationClosesAt"] = "Registration closes after it opens."
    starts_at = fields.get("starts_at")
    if closes and starts_at and closes > starts_at:
        errors["registrationClosesAt"] = f"Registration closes by the time it begins, {when(starts_at)}."
    if not fields.get("coach") and not (fields.get("coach_name") or "").strip():
        errors["coachName"] = "Name its coach: a person of the club, or a name."
    return errors


def _clean(program: Program) -> None:
    """The model's own checks of a program's fields, refused under the API's names."""
    try:
        program.full_clean(exclude=["blocks"])
    except ValidationError as refused:
        raise ValidationError(
            {camel_case(name): messages for name, messages in refused.message_dict.items()}
        ) from refused


@transaction.atomic
def program_create(
    *,
    by: User,
    courts: list[Court],
    first_date: Date,
    until: Date | None,
    slots: list[str],
    conflicts: str = REFUSE,
    **fields: Any,
) -> Program:
    """An admin makes a program on `courts` at `slots` on `first_date` (weekly until `until`): one
    block per court holds them, refused whole as a block is (bookings in the way are listed in a
    BlockConflicts unless `conflicts` says otherwise; a booking taking a slot meanwhile wins it)."""
    if not courts:
        raise ValidationError({"courtIds": "Choose at least one court."})
    if first_date < timezone.localdate():
        raise ValidationError({"firstDate": "Please choose today or a later date."})
    # Checked on its first court now (its blocks check each court's): when it begins decides the rest.
    if refusal := slots_refusal(court=courts[0], date=first_date, slots=slots, doing="hold"):
        raise ValidationError({"slots": refusal})
    slots = sorted(slots, key=courts[0].slots.index)  # in the court's order, as its blocks keep them
    starts_at = min(map(Slot.parse, slots)).starts_at(first_date)
    if errors := _check({**fields, "starts_at": starts_at}):
        raise ValidationError(errors)
    fields["title"] = fields["title"].strip()
    program = Program(
        created_by=by, first_date=first_date, until=until, slots=slots, starts_at=starts_at, **fields
    )
    _clean(program)
    program.save()
    reason = str(program)
    try:
        blocks = [
            block_create(
                by=by,
                court=court,
                date=first_date,
                until=until,
                slots=slots,
                reason=reason[:200],
                conflicts=conflicts,
            )
            for court in courts
        ]
    except ValidationError as refused:
        raise ValidationError(
            {BLOCK_FIELDS.get(name, name): messages for name, messages in refused.message_dict.items()}
        ) from refused
    program.blocks.set(blocks)
    audit_record(actor=by, action="program.create", target=program, summary=f"Made the {program}")
    return program


@transaction.atomic
def program_update(*, program: Program, by: User, **changes: Any) -> Program:
    """An admin changes a program's details; its places are never fewer than those taken, and a
    new place goes to the first on its waitlist. Its days, courts and slots stay: to move it, call
    it off and make another."""
    locked = Program.objects.select_for_update().get(pk=program.pk)
    if locked.status == Program.Status.CANCELLED:
        raise Conflict("This program was called off: it cannot change.")
    kept = ("registration_opens_at", "registration_closes_at", "coach", "coach_name", "starts_at")
    errors = _check({**{name: getattr(locked, name) for name in kept}, **changes})
    taken = places_taken(locked)
    if (capacity := changes.get("capacity")) is not None and capacity < taken:
        errors["capacity"] = f"{taken} places are taken: it cannot have fewer."
    if errors:
        raise ValidationError(errors)

    def save(instance: Program) -> None:
        _clean(instance)
        instance.save()

    updated = audited_update(
        locked,
        by=by,
        action="program.change",
        changes=changes,
        summary=lambda before, after: f"Changed the {locked}: " + ", ".join(after),
        audited=AUDITED,
        save=save,
    )
    if "title" in changes or "kind" in changes:
        for block in updated.blocks.all():
            block.reason = str(updated)[:200]
            block.save(update_fields=["reason"])
    places_offer(updated)
    return updated


def _registration_refusal(program: Program, user: User, now: datetime) -> str:
    if program.status == Program.Status.CANCELLED:
        return "This program was called off."
    if now < program.registration_opens_at:
        return f"Registration opens {when(program.registration_opens_at)}."
    if now >= program.registration_closes_at or now >= program.starts_at:
        return "Registration has closed."
    if program.members_only and user.role not in (User.Role.MEMBER, User.Role.ADMIN):
        return "This program is for members only: become a member to register."
    return ""


@transaction.atomic
def program_register(*, program: Program, user: User) -> Registration:
    """Registers `user` while registration is open: a place held for them to pay for (for the
    policy's checkout hold), confirmed at once when it costs them nothing; a full program puts them
    on its waitlist. Places are counted under the program's lock: of many asking for the last place
    at once, exactly one gets it."""
    locked = Program.objects.select_for_update().get(pk=program.pk)
    now = timezone.now()
    if refusal := _registration_refusal(locked, user, now):
        raise Conflict(refusal)
    if mine := locked.registrations.filter(user=user, status__in=Registration.ACTIVE).first():
        raise Conflict(
            f"You are {'on its waitlist' if mine.status == Status.WAITING else 'registered'} already."
        )
    price = program_price(locked, user)
    if places_taken(locked, now) >= locked.capacity:
        status, changes = Status.WAITING, {}
    elif price:
        hold = timedelta(minutes=policy_get().checkout_hold_minutes)
        status, changes = Status.HELD, {"held_until": min(now + hold, locked.starts_at)}
    else:
        status, changes = Status.CONFIRMED, {"confirmed_at": now}
    try:
        with transaction.atomic():  # a savepoint: the constraint is the last word on a second place
            registration = Registration.objects.create(
                program=locked, user=user, status=status, price=price, **changes
            )
    except IntegrityError:
        raise Conflict("You are registered already.") from None
    if status == Status.WAITING:
        notices.waitlisted(registration, ahead=waiting_ahead(registration))
    elif status == Status.CONFIRMED:
        notices.registered(registration)
    return registration


def waiting_ahead(registration: Registration) -> int:
    """How many are before the person on the program's waitlist."""
    return registration.program.registrations.filter(
        Q(created_at__lt=registration.created_at)
        | Q(created_at=registration.created_at, pk__lt=registration.pk),
        status=Status.WAITING,
    ).count()


def places_offer(program: Program, *, now: datetime | None = None) -> int:
    """Each free place of the program (whose lock the caller holds) goes to the first on its
    waitlist, before it begins: held for them for the policy's `waitlist_hold_minutes` to pay, or
    confirmed when it costs them nothing; they are told. Answers how many were offered."""
    now = now or timezone.now()
    if program.status != Program.Status.OPEN or now >= program.starts_at:
        return 0
    free = program.capacity - places_taken(program, now)
    line = program.registrations.filter(status=Status.WAITING).select_related("user", "program")
    offered = 0
    for registration in line.order_by("created_at", "id")[: max(free, 0)]:
        if registration.price:
            hold = timedelta(minutes=policy_get().waitlist_hold_minutes)
            registration.move(Status.HELD, held_until=min(now + hold, program.starts_at))
            notices.place_offered(registration)
        else:
            registration.move(Status.CONFIRMED, confirmed_at=now)
            notices.registered(registration)
        offered += 1
    return offered


def registration_confirm(*, registration: Registration) -> None:
    """A place paid for (payments.services): confirmed while it is held, or, its hold run out, if a
    place is still free; else a Conflict. Under the program's lock, then the registration's, as
    everything that counts the program's places takes them."""
    program = Program.objects.select_for_update().get(pk=registration.program_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    now = timezone.now()
    held = registration.status == Status.HELD and registration.held_until and registration.held_until > now
    lapsed = registration.status in (Status.HELD, Status.LAPSED)
    if not held and not (lapsed and places_taken(program, now) < program.capacity):
        raise Conflict("The place was no longer held for you when the payment arrived.")
    if program.status != Program.Status.OPEN:
        raise Conflict("The program was called off before the payment arrived.")
    registration.move(Status.CONFIRMED, locked=True, confirmed_at=now)


def refund_percent(registration: Registration, *, by: User | None, now: datetime) -> int:
    """What a paid place cancelled by `by` at `now` gives back: everything when the club cancels,
    or the participant before the program's cut-off; nothing after it."""
    if by is None or by.is_admin:
        return 100
    cutoff = registration.program.starts_at - timedelta(hours=registration.program.cancel_cutoff_hours)
    return 100 if now < cutoff else 0


# The payments app's service recording the refunds a cancelled registration owes (with
# `registration`, `by`, `percent`), named as Django starts (PaymentsConfig.ready).
_refund_for_cancelled_registration: Callable[..., object] | None = None


def cancellations_refunded_by(record: Callable[..., object]) -> None:
    global _refund_for_cancelled_registration
    _refund_for_cancelled_registration = record


def _refunds_owed(registration: Registration, *, by: User | None, percent: int) -> None:
    if _refund_for_cancelled_registration is None:  # never cancelled without its refunds
        raise ImproperlyConfigured("No service records the refunds of paid registrations cancelled.")
    _refund_for_cancelled_registration(registration=registration, by=by, percent=percent)


@transaction.atomic
def registration_cancel(*, registration: Registration, by: User) -> Registration:
    """Its person or an admin cancels a registration (or a place on the waitlist) before the
    program begins; a paid one is refunded as refund_percent says, once; its place goes to the
    first on the waitlist."""
    if registration.user_id != by.pk and not by.is_admin:
        raise Forbidden("Only the person registered or an admin may cancel a registration.")
    program = Program.objects.select_for_update().get(pk=registration.program_id)
    locked = (
        Registration.objects.select_related("user", "program")
        .select_for_update(of=("self",))
        .get(pk=registration.pk)
    )
    now = timezone.now()
    if locked.status == Status.CONFIRMED and program.starts_at <= now:
        raise Conflict("This program has begun: the registration can no longer be cancelled.")
    was = locked.move(Status.CANCELLED, locked=True, cancelled_at=now)
    if was == Status.CONFIRMED:
        _refunds_owed(locked, by=by, percent=refund_percent(locked, by=by, now=now))
    if by.pk != locked.user_id:
        notices.registration_cancelled(locked, reason="The club cancelled your registration.")
    places_offer(program, now=now)
    return locked


@transaction.atomic
def program_cancel(*, program: Program, by: User, reason: str = "") -> Program:
    """An admin calls a program off: every registration and place on its waitlist is cancelled, each
    paid one refunded in full (once: a second call finds it called off), everyone told; its blocks
    are lifted, their slots free for booking."""
    if refusal := one_line_refusal(reason):
        raise ValidationError({"reason": refusal})
    locked = Program.objects.select_for_update().get(pk=program.pk)
    if locked.status == Program.Status.CANCELLED:
        raise Conflict("This program was called off already.")
    locked.move(Program.Status.CANCELLED, locked=True)
    now = timezone.now()
    told = f"The club called off {locked.title}" + (f": {reason.strip()}" if reason.strip() else ".")
    active = locked.registrations.filter(status__in=Registration.ACTIVE).select_related("user", "program")
    for registration in active.select_for_update(of=("self",)):
        was = registration.move(Status.CANCELLED, locked=True, cancelled_at=now)
        if was == Status.CONFIRMED:
            _refunds_owed(registration, by=by, percent=100)
        notices.registration_cancelled(registration, reason=told)
    for block in locked.blocks.all():
        block_delete(block=block, by=by, program_called_off=True)
    audit_record(actor=by, action="program.cancel", target=locked, summary=f"Called off the {locked}")
    return locked


def registrations_lapse(*, now: datetime | None = None) -> int:
    """Holds run out unpaid lapse, as do places on the waitlists of programs begun; each place
    freed goes to the first on its waitlist. Answers how many lapsed."""
    now = now or timezone.now()
    due = Registration.objects.filter(
        Q(status=Status.HELD, held_until__lte=now) | Q(status=Status.WAITING, program__starts_at__lte=now)
    )
    lapsed = 0
    for program_id in due.values_list("program_id", flat=True).distinct():
        with transaction.atomic():
            program = Program.objects.select_for_update().get(pk=program_id)
            lapsed += Registration.move_where(
                Status.LAPSED,
                Q(program=program),
                Q(status=Status.HELD, held_until__lte=now)
                | Q(status=Status.WAITING, program__starts_at__lte=now),
            )
            places_offer(program, now=now)
    return lapsed


@task
def lapse_registrations() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return registrations_lapse()


def program_message(*, program: Program, by: User, subject: str, message: str) -> int:
    """The coach or an admin writes to everyone registered (held places included); answers how
    many were told."""
    if not by.is_admin and program.coach_id != by.pk:
        raise Forbidden("Only the program's coach or an admin may write to its participants.")
    errors = {}
    if not subject.strip():
        errors["subject"] = "Give the message a subject."
    elif refusal := one_line_refusal(subject):
        errors["subject"] = refusal
    if not message.strip():
        errors["message"] = "Write the message."
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        people = list(participants(program))
        sent_at = timezone.now()
        for registration in people:
            notices.program_message(
                registration, by=by, subject=subject.strip(), message=message.strip(), at=sent_at
            )
    return len(people)
