from django.contrib import admin

from .models import Court


@admin.register(Court)
class CourtAdmin(admin.ModelAdmin):
    list_display = ["name", "type", "price", "created_at"]
    list_filter = ["type"]
    search_fields = ["name", "type"]
