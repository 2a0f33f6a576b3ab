"""Stet: a transcript editor that restores punctuation and capitals with confidence you can review.

Importing this package is cheap: it loads no torch, Qt, vosk or sounddevice.
"""

__version__ = "0.1.0"
