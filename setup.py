"""Package discovery for the design's top-level layout, and the version (the rest of the metadata is in
pyproject.toml).

cli/, engine/ and configs/ sit at the top of the repository but install as subpackages of the
namespace package ``cardgames``. Every folder below them is a package, the data folders under
configs/ (decks/, games/, variants/) included: setuptools warns about a folder it would install
without its being listed.

The version has one home, ``ENGINE_VERSION`` in engine/__init__.py: every game log and batch result file
records it (and ``batch --resume`` refuses a file of another), so ``cardgames --version``, which reads the
installed metadata, must say the same. It is read as text: importing the package would need its
dependencies before they are installed.
"""

import re
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


def version() -> str:
    found = re.search(r'^ENGINE_VERSION = "([^"]+)"$', Path("engine/__init__.py").read_text(encoding="utf-8"), re.M)
    if found is None:
        raise SystemExit("engine/__init__.py: no ENGINE_VERSION = \"...\" line")
    return found.group(1)


setup(version=version(), packages=packages(), package_dir={name: folder for folder, name in ROOTS.items()})
