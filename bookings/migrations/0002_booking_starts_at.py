from datetime import datetime, time

from django.db import migrations, models
from django.utils import timezone


def fill_starts_at(apps, schema_editor):
    Booking = apps.get_model("bookings", "Booking")
    for booking in Booking.objects.only("pk", "date", "slots").iterator():
        # "HH:MM-HH:MM" strings sort in time order: the smallest is the first slot.
        first = time.fromisoformat(min(booking.slots)[:5])
        booking.starts_at = timezone.make_aware(datetime.combine(booking.date, first))
        booking.save(update_fields=["starts_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="booking",
            name="starts_at",
            field=models.DateTimeField(null=True, help_text="When its first slot begins."),
        ),
        migrations.RunPython(fill_starts_at, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="booking",
            name="starts_at",
            field=models.DateTimeField(help_text="When its first slot begins."),
        ),
    ]
