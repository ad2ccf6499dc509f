"""Signing up, beside Django's login and logout (names without a namespace)."""

from django.urls import path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
]
