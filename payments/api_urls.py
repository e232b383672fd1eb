from django.urls import path

from . import apis

urlpatterns = [
    path("bookings/<int:booking_id>/quote", apis.QuoteApi.as_view(), name="api-booking-quote"),
    path("create-payment-intent", apis.PaymentIntentApi.as_view(), name="api-create-payment-intent"),
    path(
        "series/<int:series_id>/payment-intent",
        apis.SeriesPaymentIntentApi.as_view(),
        name="api-series-payment-intent",
    ),
    path(
        "registrations/<int:registration_id>/payment-intent",
        apis.RegistrationPaymentIntentApi.as_view(),
        name="api-registration-payment-intent",
    ),
    path("save-payment", apis.SavePaymentApi.as_view(), name="api-save-payment"),
    path("payments", apis.PaymentListApi.as_view(), name="api-payments"),
    path("members", apis.MemberListApi.as_view(), name="api-members"),
    path("members/<int:member_id>", apis.MemberApi.as_view(), name="api-member"),
    path("refunds/<int:refund_id>/retry", apis.RefundRetryApi.as_view(), name="api-refund-retry"),
    path("coupons", apis.CouponListApi.as_view(), name="api-coupons"),
    path("coupons/<int:coupon_id>", apis.CouponDetailApi.as_view(), name="api-coupon"),
    path("memberships", apis.MembershipCheckoutApi.as_view(), name="api-membership-checkout"),
    path("memberships/me/renewal", apis.MembershipRenewalApi.as_view(), name="api-membership-renewal"),
    path("memberships/me/cancel", apis.MembershipCancelApi.as_view(), name="api-membership-cancel"),
    path("stripe/webhook", apis.StripeWebhookApi.as_view(), name="stripe-webhook"),
]
