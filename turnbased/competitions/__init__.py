"""Competitions: tournaments, seasonal leagues and ladders that the service runs from entry to final standings."""
