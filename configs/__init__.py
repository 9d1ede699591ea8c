"""Bundled YAML configs: decks/, games/, variants/ (data, no code)."""
