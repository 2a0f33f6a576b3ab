"""Only what pyproject.toml cannot say: the packages found under editor/ plus one mapped folder.

pyproject.toml takes either a package list or a find rule, not both. resources/ (and docs/) live outside
editor/ (it is the source of truth for the checkout, the wheel and the PyInstaller build) and is
mapped in as `editor.resources` by [tool.setuptools.package-dir]; its folders are named as
packages too, only so that setuptools does not warn that they "would be ignored" (they hold data).
"""

from setuptools import find_namespace_packages, find_packages, setup

resource_folders = [f"editor.resources.{name}" for name in find_namespace_packages(where="resources")
                    if name.isidentifier() and name != "screenshots"]
# docs/ is mapped in the same way as `editor.docs` (the pages Help shows, with their pictures).
setup(packages=[*find_packages(include=["editor*"]), "editor.resources", *resource_folders,
                "editor.docs", "editor.docs.images"])
