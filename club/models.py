from django.db import models


class PeriodicRun(models.Model):
    """When a periodic task (settings.PERIODIC_TASKS) is next due. A worker claims a run by moving
    `due_at` forward in one UPDATE: of several workers, exactly one wins and queues the task."""

    task = models.CharField(max_length=200, primary_key=True, help_text="The task's dotted path.")
    due_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.task} due at {self.due_at}"
