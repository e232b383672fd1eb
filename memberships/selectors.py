from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.db.models import FilteredRelation, Q, QuerySet
from django.utils import timezone

from accounts.models import User

from .models import Membership, Plan


def plan_list(*, viewer: User | AnonymousUser, on_sale: bool | None = None) -> QuerySet[Plan]:
    """The plans `viewer` may see, by name: an admin every plan, or with `on_sale` those on sale
    (True) or off sale (False); anyone else the plans on sale, whatever they ask (a plan off sale is
    the admins' to see)."""
    if not (viewer.is_authenticated and viewer.is_admin):
        on_sale = True
    plans = Plan.objects.all()
    return plans if on_sale is None else plans.filter(on_sale=on_sale)


def membership_current(*, user: User) -> Membership | None:
    """The person's live membership (awaiting payment, active or past due), if any."""
    return Membership.objects.select_related("plan").filter(user=user, status__in=Membership.LIVE).first()


def plan_in_force(*, user: User, now: datetime | None = None) -> Plan | None:
    """The plan whose benefits the person holds at `now`: none without a membership in force."""
    membership = (
        Membership.objects.select_related("plan")
        .filter(Membership.in_force(now or timezone.now()), user_id=user.pk)
        .first()
    )
    return membership.plan if membership else None


def club_sells_memberships() -> bool:
    """Whether a plan is on sale: then "member" means holding one; else, as the club began, having
    paid for a booking."""
    return Plan.objects.filter(on_sale=True).exists()


def people_with_memberships(users: QuerySet[User]) -> QuerySet[User]:
    """`users`, each with their live membership and its plan as `live_membership` (None for someone
    holding none), in the same query: a join, one row a person, since a person holds one live
    membership at most (Membership's constraint). The people lists read it (All Users, Manage
    Members), from the apps above accounts."""
    live = FilteredRelation("memberships", condition=Q(memberships__status__in=Membership.LIVE))
    # django-stubs checks select_related against the model's own relations, not a FilteredRelation's.
    return users.annotate(live_membership=live).select_related("live_membership__plan")  # type: ignore[misc]
