"""Whatever changes a court or its price bands (the services, Django admin, a shell) changes the
list GET /api/courts serves: its cached serialisation is replaced (courts.services.court_list_changed)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import Court, PriceBand
from .services import court_list_changed


@receiver(post_save, sender=Court, dispatch_uid="courts-list-saved")
@receiver(post_delete, sender=Court, dispatch_uid="courts-list-deleted")
@receiver(post_save, sender=PriceBand, dispatch_uid="courts-list-band-saved")
@receiver(post_delete, sender=PriceBand, dispatch_uid="courts-list-band-deleted")
def _court_changed(sender, **kwargs) -> None:
    court_list_changed()
