"""Only what pyproject.toml cannot say: the packages found under editor/ plus one mapped folder.

pyproject.toml takes either a package list or a find rule, not both; resources/ lives outside
editor/ (it is the source of truth for the checkout, the wheel and the PyInstaller build) and is
mapped in as `editor.resources` by [tool.setuptools.package-dir].
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["editor*"]), "editor.resources"])
