"""The seeds' tables as data, one module per rule family."""
