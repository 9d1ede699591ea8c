"""Package discovery for the design's top-level layout (metadata is in pyproject.toml).

cli/, engine/ and configs/ sit at the top of the repository but install as subpackages of the
namespace package ``cardgames``. Every folder below them is a package, the data folders under
configs/ (decks/, games/, variants/) included: setuptools warns about a folder it would install
without its being listed.
"""

from pathlib import Path

from setuptools import setup

ROOTS = {"cli": "cardgames.cli", "engine": "cardgames.engine", "configs": "cardgames.configs"}


def packages() -> list[str]:
    found = []
    for folder, name in ROOTS.items():
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_dir() and p.name != "__pycache__"):
            found.append(".".join((name, *path.relative_to(folder).parts)))
        found.append(name)
    return found


setup(packages=packages(), package_dir={name: folder for folder, name in ROOTS.items()})
