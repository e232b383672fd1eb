from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email

from accounts.models import User
from accounts.selectors import user_by_email
from accounts.services import user_make_admin


class Command(BaseCommand):
    help = (
        "Makes the person with this e-mail an admin. Someone who has not signed in yet gets a record "
        "now, which becomes theirs when they first sign in with that e-mail."
    )

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, email: str, **options):
        email = email.strip().lower()
        try:
            validate_email(email)
        except ValidationError as error:
            raise CommandError(f"'{email}' is not an e-mail address.") from error
        user = user_by_email(email) or User.objects.create_user(email)
        user_make_admin(user=user)
        self.stdout.write(f"{email} is now an admin.")
