from django.contrib import admin

from .models import Character, Ship, StarSystem, Unit


@admin.register(StarSystem)
class StarSystemAdmin(admin.ModelAdmin):
    list_display = ["name", "spectral_class", "campaign"]
    list_filter = ["campaign"]


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ["name", "class_name", "kind", "campaign", "kf_integrity", "drive_charged", "shared"]
    list_filter = ["campaign", "kind", "shared"]
    search_fields = ["name", "class_name"]


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "tonnage", "campaign", "shared"]
    list_filter = ["campaign", "kind"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "role", "campaign", "ship", "unit"]
    list_filter = ["campaign", "role"]
