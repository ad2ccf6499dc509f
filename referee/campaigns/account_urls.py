"""Signing in (throttled) and up, beside Django's logout (names without a namespace)."""

from django.urls import path

from . import views

urlpatterns = [
    path("login/", views.SignInView.as_view(), name="login"),
    path("signup/", views.signup, name="signup"),
]
