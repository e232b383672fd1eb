"""Coupons belong to the payments app: the model moves here from content with its rows. The state
takes the model as content left it (its table content_coupon), points Payment.coupon at it, and
renames the table payments_coupon: a rename keeps every row, id, index, check and the foreign key
from payments_payment (PostgreSQL follows the table, not its name), so a database upgraded and one
made new are alike. content's 0005 then forgets the model, in state only."""

import django.db.models.deletion
from django.db import migrations, models

import kernel.text


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0004_text_without_control_characters"),
        ("payments", "0009_refund_sending_claim"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Coupon",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "code",
                            models.CharField(
                                help_text="Saved trimmed and upper-case.",
                                max_length=40,
                                unique=True,
                                validators=[kernel.text.validate_one_line],
                            ),
                        ),
                        (
                            "discount",
                            models.PositiveSmallIntegerField(help_text="A whole percent, from 1 to 100."),
                        ),
                        (
                            "description",
                            models.CharField(
                                blank=True, max_length=200, validators=[kernel.text.validate_one_line]
                            ),
                        ),
                        ("is_active", models.BooleanField(default=True)),
                        (
                            "once_per_person",
                            models.BooleanField(
                                default=False,
                                help_text="Each person may pay with it once (a refunded payment does not count).",
                            ),
                        ),
                        (
                            "max_uses",
                            models.PositiveIntegerField(
                                blank=True,
                                help_text="How many payments it may take in all; empty for no limit.",
                                null=True,
                            ),
                        ),
                        (
                            "valid_from",
                            models.DateField(
                                blank=True, help_text="The first day it is accepted.", null=True
                            ),
                        ),
                        (
                            "valid_until",
                            models.DateField(blank=True, help_text="The last day it is accepted.", null=True),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "content_coupon",
                        "ordering": ["created_at", "id"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("discount__gte", 1), ("discount__lte", 100)),
                                name="coupon_discount_1_to_100",
                                violation_error_message="The discount is a whole percent from 1 to 100.",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("max_uses__isnull", True), ("max_uses__gte", 1), _connector="OR"
                                ),
                                name="coupon_max_uses_at_least_1",
                                violation_error_message="A coupon is used at least once: leave this empty for no limit.",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("valid_from__isnull", True),
                                    ("valid_until__isnull", True),
                                    ("valid_until__gte", models.F("valid_from")),
                                    _connector="OR",
                                ),
                                name="coupon_valid_until_on_or_after_valid_from",
                                violation_error_message="The last day comes on or after the first.",
                            ),
                        ],
                    },
                ),
                migrations.AlterField(
                    model_name="payment",
                    name="coupon",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to="payments.coupon",
                    ),
                ),
            ],
        ),
        migrations.AlterModelTable(name="coupon", table=None),
    ]
