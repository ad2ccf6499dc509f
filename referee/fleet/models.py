"""Models of the fleet app."""
