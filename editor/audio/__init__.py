"""Audio playback in the editor (sounddevice); imports only editor.core."""
