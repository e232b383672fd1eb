"""An empty announcement is refused in the club's words: a change of state only (error_messages
touch no column)."""

from django.db import migrations, models

import kernel.text


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0005_coupon_to_payments"),
    ]

    operations = [
        migrations.AlterField(
            model_name="announcement",
            name="text",
            field=models.TextField(
                error_messages={"blank": "Please write the announcement."},
                max_length=2000,
                validators=[kernel.text.validate_lines],
            ),
        ),
    ]
