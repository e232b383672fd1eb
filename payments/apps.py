from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"

    def ready(self) -> None:
        from bookings.services import cancellations_refunded_by
        from programs.services import cancellations_refunded_by as registration_cancellations_refunded_by

        from . import receivers  # noqa: F401  (connects them)
        from .services import refunds_for_cancelled_registration, refunds_for_ended_booking

        # A paid booking cancelled (bookings.services.booking_cancel) owes its refund; so does a
        # paid place in a program (programs.services.registration_cancel, program_cancel).
        cancellations_refunded_by(refunds_for_ended_booking)
        registration_cancellations_refunded_by(refunds_for_cancelled_registration)
