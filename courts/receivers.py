"""Whatever changes a court (the services, Django admin, a shell) changes the list GET /api/courts
serves: its cached serialisation is replaced (courts.services.court_list_changed)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import Court
from .services import court_list_changed


@receiver(post_save, sender=Court, dispatch_uid="courts-list-saved")
@receiver(post_delete, sender=Court, dispatch_uid="courts-list-deleted")
def _court_changed(sender, **kwargs) -> None:
    court_list_changed()
