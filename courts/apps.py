from django.apps import AppConfig


class CourtsConfig(AppConfig):
    name = "courts"
