from django.tasks import task

from . import notices


@task
def announce(announcement_id: int) -> int:
    return notices.announced(announcement_id=announcement_id)
