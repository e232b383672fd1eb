from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from kernel.admin import ServiceAdmin

from .models import WEEKDAY_NAMES, Court, PriceBand
from .pricing import overlap_message
from .services import court_create, court_delete, court_update


class PriceBandForm(forms.ModelForm):
    weekdays = forms.TypedMultipleChoiceField(
        choices=list(enumerate(WEEKDAY_NAMES)), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = PriceBand
        fields = ["weekdays", "starts", "ends", "price", "members_only"]


class PriceBandFormSet(BaseInlineFormSet):
    def kept(self) -> list[forms.ModelForm]:
        return [
            form
            for form in self.forms
            # Django's own test of a form marked for deletion, which its stubs leave out.
            if form.is_valid() and form.cleaned_data and not self._should_delete_form(form)  # type: ignore[attr-defined]
        ]

    def clean(self) -> None:
        """A court's bands may not overlap, as the court API refuses (courts.services)."""
        super().clean()
        if (overlap := overlap_message([form.instance for form in self.kept()])) is not None:
            raise ValidationError(overlap)


class PriceBandInline(admin.TabularInline):
    model = PriceBand
    form = PriceBandForm
    formset = PriceBandFormSet
    extra = 0


@admin.register(Court)
class CourtAdmin(ServiceAdmin):
    """A court with bookings is archived rather than deleted (Django admin refuses that deletion
    first, naming the bookings); it is opened again by unticking is_archived."""

    list_display = ["name", "type", "price", "is_archived", "created_at"]
    list_filter = ["type", "is_archived"]
    search_fields = ["name", "type"]
    date_hierarchy = "created_at"
    inlines = [PriceBandInline]

    def get_fields(self, request, obj=None):
        fields = ["name", "type", "price", "image", "slots", "places"]
        return fields if obj is None else [*fields, "is_archived"]

    def create(self, request, form, formsets):
        [bands] = formsets
        return court_create(by=request.user, price_bands=price_bands(bands), **form.cleaned_data)

    def update(self, request, obj, changes, formsets):
        [bands] = formsets
        changed_bands = price_bands(bands) if bands.has_changed() else None  # None: the bands as they are
        court_update(court=obj, by=request.user, price_bands=changed_bands, **changes)

    def remove(self, request, obj):
        court_delete(court=obj, by=request.user)


def price_bands(formset: PriceBandFormSet) -> list[dict]:
    """The bands the inline keeps, as the courts' services take them."""
    return [{name: form.cleaned_data[name] for name in PriceBandForm.Meta.fields} for form in formset.kept()]
