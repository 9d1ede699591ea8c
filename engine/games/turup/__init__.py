"""Turup: a fishing game for 2-12 players on 1-3 French decks (match and addition captures)."""
