"""The cardgames engine: decks, configs, the game contract, logs and the games themselves.

Nothing here imports a game module eagerly: the CLI must start fast, so games are loaded
by name through :mod:`cardgames.engine.registry` only when they are asked for.
"""

ENGINE_VERSION = "0.1.0"
#: The most seats any command or result file accepts (no game here seats more than 12).
MAX_PLAYERS = 64
#: The deal generators: the project's own (:mod:`.rng`) and PySolFC's game numbers (:mod:`.pysolfc`).
RNG_MODES = ("native", "pysolfc")
#: The environment's list of extra config folders (separated as ``PATH`` is), read when no ``--configs`` is given.
CONFIGS_ENV = "CARDGAMES_CONFIGS"


def env_config_folders() -> list[str]:
    """The folders :data:`CONFIGS_ENV` lists, empty entries skipped. Here rather than in :mod:`.config`, so
    that the CLI reads them without importing the config machinery (``cardgames deal --help`` stays fast)."""
    import os

    return [folder for folder in os.environ.get(CONFIGS_ENV, "").split(os.pathsep) if folder]
