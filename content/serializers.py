from django.urls import reverse
from rest_framework import serializers

from kernel.days import DateLabel, when

from .models import Announcement


class AnnouncementOutput(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(source="created_at")
    createdAtLabel = DateLabel(when, source="created_at")
    url = serializers.SerializerMethodField(help_text="Where to change or delete this announcement.")

    class Meta:
        model = Announcement
        fields = ["id", "text", "createdAt", "createdAtLabel", "url"]

    def get_url(self, announcement: Announcement) -> str:
        return reverse("api-announcement", args=[announcement.pk])


class AnnouncementInput(serializers.Serializer):
    text = serializers.CharField(max_length=2000, trim_whitespace=False, allow_blank=True)
