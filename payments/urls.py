from django.urls import path

from . import views

app_name = "payments"
urlpatterns = [
    # Any signed-in owner of an approved booking pays here: paying is how a user becomes a member.
    path("dashboard/payment-page/<int:booking_id>", views.pay, name="pay"),
    path("dashboard/series/<int:series_id>/payment-page", views.pay_series, name="pay-series"),
    path(
        "dashboard/registrations/<int:registration_id>/payment-page",
        views.pay_registration,
        name="pay-registration",
    ),
    path("dashboard/payment-history", views.history, name="history"),
    path("dashboard/payments/<int:payment_id>/receipt", views.receipt, name="receipt"),
    path("dashboard/ledger", views.ledger_page, name="ledger"),
    path("dashboard/manage-coupons", views.manage_coupons, name="manage-coupons"),
    path("dashboard/ledger.csv", views.ledger_csv, name="ledger-csv"),
]
