"""Crash recovery without Qt: slots, their state, the edit journal, locks."""
