"""Packaging: everything is declared in pyproject.toml but the package list.

The top-level templates/ folder ships inside the wheel as the package
`pnpforge.templates`; setuptools' declarative `packages.find` cannot add a
mapped folder beside what it finds, so the list is computed here.
"""

from setuptools import find_packages, setup

setup(packages=find_packages("cli") + ["pnpforge.templates"])
