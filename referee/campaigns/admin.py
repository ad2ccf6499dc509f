from django.contrib import admin

from .forms import AdminSignInForm
from .models import Campaign, Invite, Membership

# The admin's sign-in page pauses after repeated wrong passwords too.
admin.site.login_form = AdminSignInForm


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
    list_display = ["campaign", "created_by", "created_at", "expires_at", "uses", "max_uses", "revoked_at"]
