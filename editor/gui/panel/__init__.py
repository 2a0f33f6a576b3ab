"""The side panel: the legend and the list of pending suggestions."""
