from django.contrib import admin

from .models import Campaign, Invite, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "year", "turn", "phase", "clock"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["campaign", "created_by", "created_at", "revoked_at"]
