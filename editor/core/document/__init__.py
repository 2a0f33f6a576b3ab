"""The transcript document: tokens, suggestions, history, records, paragraphs, speakers, text."""
