"""Review rules: what accepting does, repeated choices, the lexicon of names."""
