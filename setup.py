"""Package discovery for the design's top-level layout (metadata is in pyproject.toml).

cli/, engine/ and configs/ sit at the top of the repository but install as subpackages of the
namespace package ``cardgames``; every folder below them with an ``__init__.py`` is a package.
"""

from pathlib import Path

from setuptools import setup

ROOTS = {"cli": "cardgames.cli", "engine": "cardgames.engine", "configs": "cardgames.configs"}


def packages() -> list[str]:
    found = []
    for folder, name in ROOTS.items():
        for init in sorted(Path(folder).rglob("__init__.py")):
            parts = init.parent.relative_to(folder).parts
            found.append(".".join((name, *parts)))
    return found


setup(packages=packages(), package_dir={name: folder for folder, name in ROOTS.items()})
