"""argparse pieces that every subcommand module shares (those modules may import only core)."""

from __future__ import annotations

import argparse

from editor.core.render import RenderPolicy


def policy_type(text: str) -> RenderPolicy:
    """``type=`` for an option naming a RenderPolicy: none, all, or a confidence 0..1."""
    try:
        return RenderPolicy.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_policy_argument(parser: argparse.ArgumentParser, default: str = "all") -> None:
    """``--policy``: which pending suggestions a text export applies."""
    parser.add_argument(
        "--policy", type=policy_type, default=default, metavar="none|all|P",
        help="pending suggestions to apply when writing text: none, all, or those with "
             f"confidence >= P (default: {default}); .stet files keep them pending")


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """``-f/--force``: replace an existing output file (never one of the command's inputs)."""
    parser.add_argument(
        "-f", "--force", action="store_true",
        help="replace OUT if it exists (Stet never writes over its input, even with --force)")


def probability(text: str) -> float:
    """``type=`` for an option that is a probability, 0..1."""
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a probability between 0 and 1, not {text!r}")
    return v
