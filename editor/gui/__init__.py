"""The editor window (PySide6). The only part of Stet that imports Qt."""
