import uuid

from django.db import migrations, models


def give_each_their_own(apps, schema_editor):
    """A field's default is computed once for an AddField: each person gets a UUID of their own."""
    User = apps.get_model("accounts", "User")
    people = list(User.objects.only("pk"))
    for person in people:
        person.public_id = uuid.uuid4()
    User.objects.bulk_update(people, ["public_id"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_announcements_seen_at")]

    operations = [
        migrations.AddField(model_name="user", name="public_id", field=models.UUIDField(null=True, editable=False)),
        migrations.RunPython(give_each_their_own, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
