"""Booking requests, approvals and the slots they hold (built by the bookings issue)."""
