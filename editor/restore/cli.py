"""`stet restore` (and the learned-state commands). torch is imported inside the handler only;
`stet eval` and `stet train` are the lab's (editor.restore.lab.cli)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from editor.commandline.arguments import (Subcommands, add_batch_arguments, add_commas_argument, add_encoding_argument,
                                          add_force_argument, add_layout_arguments, add_restore_model_arguments,
                                          layout_from_args, probability)

if TYPE_CHECKING:
    from editor.restore.passes.pipeline import PassSettings


def add_parser(subparsers: Subcommands) -> None:
    p = subparsers.add_parser(
        "restore", help="suggest punctuation and capitals for a transcript",
        description="Read IN (any format Stet reads), predict the punctuation after each word and its "
                    "case, and write OUT by extension. A .stet project keeps every suggestion pending "
                    "for review in the editor; text formats apply those at or above --min-confidence "
                    "(default: the model's best guess everywhere). Already punctuated text keeps its marks and "
                    "capitals: only missing ones are proposed (see --keep-author). Without -o the text goes to stdout.")
    p.add_argument("input", metavar="IN", nargs="+", help="transcript to restore (or several, folders, globs)")
    p.add_argument("-o", "--output", metavar="OUT", help="file to write (a folder for many inputs)")
    add_force_argument(p)
    p.add_argument("--min-confidence", type=probability, default=0.0, metavar="P",
                   help="apply only suggestions with confidence >= P when writing text, P 0..1 or in "
                        "percent (0.9 or 90%%; default 0: all)")
    p.add_argument("--keep-author", action=argparse.BooleanOptionalAction, default=None,
                   help="keep the punctuation and capitals the text was written with: propose only missing "
                        "marks and capitals, never remove or replace one (default: on where IN has marks or "
                        "capitals; --no-keep-author also proposes removals and replacements, though never of "
                        "marks the model cannot predict well: ! ; ellipses, dashes, marks beside quotes)")
    add_commas_argument(p)
    add_restore_model_arguments(p)
    p.add_argument("--no-lexicon", action="store_true",
                   help="leave out the forms Stet remembered from your reviews (the user lexicon)")
    p.add_argument("--learned", action="store_true",
                   help="also use what Stet learned from reviews of this language and these speakers")
    p.add_argument("--learned-from", metavar="KEY", default=None,
                   help="use what Stet learned for another language or set of speakers, chosen on purpose "
                        "(a key from `stet learned --profiles`)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--any-language", action="store_true",
                   help="restore even a text that does not look like the model's language (by default such a "
                        "text is refused: its suggestions would be wrong)")
    add_encoding_argument(p)
    add_layout_arguments(p)
    add_batch_arguments(p, kind="restore", inputs="input", ray=True)
    p.set_defaults(handler=run_restore)

    from editor.restore.learning import learned_cli

    learned_cli.add_parser(subparsers)


def pass_settings(args: argparse.Namespace) -> PassSettings:
    """The restoration pass's settings from `stet restore`'s arguments (one file or a batch). A
    profile named with --learned-from is checked here, once, before any file is read: a name
    that is not kept, or a damaged one, is a bad argument."""
    from editor.core.errors import UserError
    from editor.restore.passes.pipeline import PassSettings

    if args.learned_from:
        from editor.restore.learning.learned_store import load_learned

        try:
            kept = load_learned(args.learned_from)
        except ValueError as err:
            raise UserError(f"--learned-from: {err}") from None
        if kept is None:
            raise UserError(f"--learned-from: no learned profile {args.learned_from!r} "
                            "(see `stet learned --profiles`)")
    return PassSettings(lexicon=not args.no_lexicon, learned=args.learned, profile=args.learned_from,
                        any_language=args.any_language, keep_author=args.keep_author, commas=args.commas)


def run_restore(args: argparse.Namespace) -> int:
    from editor.core.errors import UserError
    from editor.core.formats import can_write, read_any, write_any
    from editor.commandline.outputs import check_output
    from editor.commandline.progress import ProgressBar, estimate_left, format_eta
    from editor.core.render import RenderPolicy, render

    if args.output and not can_write(args.output):
        raise UserError(f"{args.output}: Stet cannot write this kind of file")
    if args.output:
        # said before the model runs, not after a long input has been restored
        folder = Path(args.output).resolve().parent
        if not folder.is_dir():
            raise UserError(f"{args.output}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise UserError(f"{args.output}: the folder {folder} is not writable")
        check_output(args.output, [args.input], force=args.force)
    settings = pass_settings(args)
    doc = read_any(args.input, args.encoding)
    for w in doc.metadata.warnings:
        print(f"stet: warning: {args.input}: {w}", file=sys.stderr)
    from editor.core.threads import configure_threads

    configure_threads()  # before torch loads: no more threads than free cores, none spinning
    from editor.restore.passes.pipeline import restore_transcript, restorer_for

    restorer = restorer_for(args.model, args.device)
    bar = ProgressBar("restoring", enabled=None if not args.quiet else False)
    t0 = time.monotonic()

    def on_words(done: int, total: int) -> None:
        bar.update(done / total, format_eta(estimate_left(done, total, time.monotonic() - t0)))

    def on_note(note: str) -> None:
        print(f"stet: warning: {args.input}: {note}", file=sys.stderr)

    try:
        restore_transcript(restorer, doc, settings, name=args.input, on_words=on_words, on_note=on_note)
    finally:
        bar.close()
    policy = RenderPolicy(args.min_confidence)
    if args.output:
        check_output(args.output, [args.input], force=args.force)  # it may have appeared meanwhile
        for warning in write_any(doc, args.output, policy, layout_from_args(args)):
            print(f"stet: warning: {args.output}: {warning}", file=sys.stderr)
    else:
        text = render(doc, policy)
        sys.stdout.write(text + "\n" if text else "")
    return 0
