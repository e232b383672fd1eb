"""Booking requests, approvals and the slots they hold."""
