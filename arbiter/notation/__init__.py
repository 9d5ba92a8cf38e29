"""Notation: move text (PDN and Hub) and PDN game files. FEN, which the rules need, is in the rules."""
