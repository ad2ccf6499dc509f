"""Terrain and weather: GM-filled terrain rows, geysers, hazards on the map."""
