import secrets
import time

from django.db import migrations, models


def first_version(apps, schema_editor):
    apps.get_model("courts", "CourtListVersion").objects.create(
        pk=1, version=f"{time.time_ns()}-{secrets.token_hex(8)}"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("courts", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="CourtListVersion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("version", models.CharField(max_length=64)),
            ],
        ),
        migrations.RunPython(first_version, migrations.RunPython.noop),
    ]
