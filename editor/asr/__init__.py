"""Speech recognition: any audio or video file to a timed transcript with Vosk, and the models it needs.

Imports only ``editor.core``; vosk and PyAV load when first used, so importing this stays cheap.
"""
