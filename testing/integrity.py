"""Checks of the data as a whole, for the tests and the benches."""

from django.db import connection


def double_booked_slots() -> int:
    """How many (court, date, slot) the bookings that hold their slots claim more than once, read
    from the bookings themselves rather than from their held slots, which the database already
    keeps unique: 0 in a sound database, however its bookings were made."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT count(*) FROM (
                SELECT b.court_id, b.date, slot
                FROM bookings_booking b, jsonb_array_elements_text(b.slots) AS slot
                WHERE b.status IN ('pending', 'approved', 'confirmed')
                GROUP BY b.court_id, b.date, slot
                HAVING count(*) > 1
            ) AS doubled
            """
        )
        return cursor.fetchone()[0]
