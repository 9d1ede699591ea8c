"""The cardgames engine: decks, configs, the game contract, logs and the games themselves.

Nothing here imports a game module eagerly: the CLI must start fast, so games are loaded
by name through :mod:`cardgames.engine.registry` only when they are asked for.
"""

ENGINE_VERSION = "0.1.0"
#: The most seats any command or result file accepts (no game here seats more than 12).
MAX_PLAYERS = 64
#: The deal generators: the project's own (:mod:`.rng`) and PySolFC's game numbers (:mod:`.pysolfc`).
RNG_MODES = ("native", "pysolfc")
