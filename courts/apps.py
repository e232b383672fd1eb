from django.apps import AppConfig


class CourtsConfig(AppConfig):
    name = "courts"

    def ready(self) -> None:
        from . import receivers  # noqa: F401 - connects them
