"""Models of the play app."""
