from django.apps import AppConfig


class KernelConfig(AppConfig):
    """An app only so that Django finds its template tags."""

    name = "kernel"
