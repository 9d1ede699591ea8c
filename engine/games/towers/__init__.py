"""Towers ("le jeu des tours"): a gambling game for 2-4 players on the 54-card Harrow deck."""
