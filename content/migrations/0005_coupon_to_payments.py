"""Coupons belong to the payments app, which took the model and its table (payments' 0009): this
app forgets it, in state only."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0004_text_without_control_characters"),
        ("payments", "0010_coupon_from_content"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Coupon")]),
    ]
