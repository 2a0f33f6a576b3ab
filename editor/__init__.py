"""Stet: a transcript editor that restores punctuation and capitals with confidence you can review.

Importing this package is cheap: it loads no torch, Qt, vosk or sounddevice.
"""

__version__ = "0.1.0"
#: The code's licence (SPDX), as pyproject.toml states it; a frozen build keeps no package metadata
#: to read it from. The shipped model's weights are under their model card's terms, not this.
__license__ = "Apache-2.0"
