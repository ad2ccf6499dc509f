"""Shipboard combat: compartments aboard ships, their surfaces, pressure and fuel lines."""
