"""Cargo, supplies, low-tech 'Mechs and special vehicles kept for the campaign."""
