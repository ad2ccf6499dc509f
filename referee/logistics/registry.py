"""Registrations of this app with the dashboard, the forms and the effect rules."""
