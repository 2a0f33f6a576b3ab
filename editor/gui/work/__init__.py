"""Controllers of long work for the window: restoring, transcribing, opening, saving,
recovery, encodings, learning. No widgets of their own beyond a question.
"""
