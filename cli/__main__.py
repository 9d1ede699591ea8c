"""``python -m cardgames.cli``: the ``cardgames`` command where its script is not on ``PATH`` (an
installation into another prefix, a venv not activated)."""

from .main import main

main()
