"""What only the commands use: argument parsing, progress bars, output paths."""
