from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from club import schema  # noqa: F401 - registers the authentication schemes with drf-spectacular
