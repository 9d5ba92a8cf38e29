"""Notation: FEN, move text (PDN and Hub), and PDN game files."""
