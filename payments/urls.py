from django.urls import path

from accounts.guards import member_required
from club.dashboard import section

app_name = "payments"
urlpatterns = [
    path("dashboard/payment-page/<int:booking_id>", section("Payment", member_required), name="pay"),
    path("dashboard/payment-history", section("Payment History", member_required), name="history"),
]
