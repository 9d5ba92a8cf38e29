"""Storing and reading back whole games in PDN: export of a tournament's games and import of PDN files."""
