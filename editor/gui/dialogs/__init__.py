"""The window's dialogs, one a module."""
