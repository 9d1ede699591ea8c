"""The games: one package per engine (rules module, agents, helpers)."""
