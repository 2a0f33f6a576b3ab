"""The transcript view: building, editing, review, pointer, gutter, looks, fonts, and the text map and layout it alone uses."""
