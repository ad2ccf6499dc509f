"""Booby traps (Seed A): traps generated into a campaign, the GM's weapon charts."""
