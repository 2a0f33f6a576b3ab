"""`stet gui [FILE] [--screenshot PNG]`: the editor window. PySide6 is imported inside the handler."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from editor.commandline.arguments import Subcommands


def add_parser(subparsers: Subcommands) -> None:
    from editor.commandline.arguments import add_restore_model_arguments

    p = subparsers.add_parser(
        "gui", help="open the editor window (the default without a command)",
        description="Open the editor, optionally with FILE (any format Stet reads). Restoration "
                    "starts in the background. With --screenshot, wait for restoration, save a "
                    "picture of the window to PNG and exit (works under xvfb-run).")
    p.add_argument("file", nargs="?", metavar="FILE")
    p.add_argument("--screenshot", metavar="PNG", help="save a screenshot of the window and exit")
    add_restore_model_arguments(p, from_settings=True)
    p.add_argument("--timeout", type=float, default=300.0, metavar="S",
                   help="with --screenshot: give up waiting for restoration after S seconds")
    p.set_defaults(handler=run_gui)


def run_gui(args: argparse.Namespace) -> int:
    from editor.gui.app import run

    return run(args.file, screenshot=args.screenshot, model=args.model, device=args.device,
               timeout=args.timeout)
