"""Playback in the window: following the words, the player bar."""
