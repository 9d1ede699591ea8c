"""Torqu: the centre tableau, pair drawing, personal tableaus, exact set scoring and the board."""
