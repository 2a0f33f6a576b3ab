"""What every part of the window stands on: background work, turns, disposal, links, the session,
the status bar, modal questions, sizes within the screen, hotkeys."""
