from django.urls import path

from accounts.guards import login_required, member_required
from club.dashboard import section

app_name = "payments"
urlpatterns = [
    # Any signed-in owner of an approved booking pays here: paying is how a user becomes a member.
    path("dashboard/payment-page/<int:booking_id>", section("Payment", login_required), name="pay"),
    path("dashboard/payment-history", section("Payment History", member_required), name="history"),
]
