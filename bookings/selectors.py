from django.db.models import QuerySet

from accounts.models import User

from .models import BookedSlot, Booking
from .services import bookings_expire


def bookings_visible_to(user: User) -> QuerySet[Booking]:
    """The bookings a person may see: their own; an admin, everyone's."""
    bookings = Booking.objects.select_related("user", "court")
    return bookings if user.is_admin else bookings.filter(user=user)


def booking_list(*, viewer: User, status: str, email: str = "", title: str = "") -> QuerySet[Booking]:
    """Bookings in `status` that `viewer` may see, optionally of one person (`email`) or courts
    whose name contains `title`. Overdue approvals expire first, so a list is never stale."""
    bookings_expire()
    bookings = bookings_visible_to(viewer).filter(status=status)
    if email:
        bookings = bookings.filter(user__email=email.strip().lower())
    if title := title.strip():
        bookings = bookings.filter(court_name__icontains=title)
    return bookings.order_by("date", "id")


def taken_slots(*, court_id: int, date) -> list[str]:
    """The slots of a court that bookings hold on a date."""
    return list(BookedSlot.objects.filter(court_id=court_id, date=date).values_list("slot", flat=True))


def own_bookings(user: User) -> QuerySet[Booking]:
    """A person's own bookings, whatever their role (paying is only ever for oneself)."""
    return Booking.objects.select_related("user", "court").filter(user=user)
