"""The ``stet`` command.

Subcommands come from a ``cli`` module in each package of COMMAND_PACKAGES (restore, restore.lab,
asr, audio, gui), found at start-up: a new command in one of them never means editing this file,
and a build without a package (the lab, the window) simply lacks its commands. Such a module
provides::

    def add_parser(subparsers):          # subparsers: argparse's _SubParsersAction
        p = subparsers.add_parser("restore", help="...", description="...")
        p.add_argument(...)
        p.set_defaults(handler=run)      # run(args) -> int | None  (None means 0)

and imports heavy things (torch, vosk, PySide6) inside ``run``, never at module level, so that
``stet --help`` stays fast. A handler raises ``editor.core.UserError`` for anything the person can
fix; ``main`` prints it as one line and exits 1. Bad usage exits 2 (argparse, or a
``editor.core.errors.UsageError`` a handler raises: options that cannot work together), success 0.
``editor.commandline.arguments`` holds shared options such as ``--policy``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NoReturn

from editor import __version__

if TYPE_CHECKING:
    from editor.commandline.arguments import Subcommands
    from editor.core.document.transcript import Transcript

#: Sub-packages whose ``cli`` module, when present, adds subcommands.
COMMAND_PACKAGES = ("editor.restore", "editor.restore.lab", "editor.asr", "editor.audio", "editor.gui")
EXIT_OK, EXIT_USER_ERROR, EXIT_USAGE = 0, 1, 2
#: What a subcommand's ``run`` is: None means success.
Handler = Callable[[argparse.Namespace], int | None]


def _warn(doc: Transcript) -> None:
    for warning in doc.metadata.warnings:
        print(f"stet: warning: {doc.metadata.source_file}: {warning}", file=sys.stderr)


def run_convert(args: argparse.Namespace) -> int:
    from editor.core.formats import read_any, write_any
    from editor.commandline.arguments import layout_from_args
    from editor.commandline.outputs import check_output

    from editor.core.document.speakers import check_renames, parse_renames, turn_times_note, writer_options

    renames = parse_renames(args.speaker or ())
    check_output(args.output, [args.input], force=args.force)
    doc = read_any(args.input, args.encoding)
    _warn(doc)
    check_renames(doc, renames)
    doc.rename_speakers(renames)
    if args.commas is not None:
        from editor.core.commas import leave_out_commas

        leave_out_commas(doc, args.commas)
    check_output(args.output, [args.input], force=args.force)  # it may have appeared meanwhile
    note = turn_times_note(args.output) if args.turn_times else None
    if note:
        print(f"stet: warning: {args.output}: {note}", file=sys.stderr)
    for warning in write_any(doc, args.output, args.policy, layout_from_args(args),
                             **writer_options(args.output, args.turn_times)):
        print(f"stet: warning: {args.output}: {warning}", file=sys.stderr)
    return EXIT_OK


def run_speakers(args: argparse.Namespace) -> int:
    from editor.core.formats import read_any
    from editor.core.document.speakers import count_speakers, speaker_table

    doc = read_any(args.input, args.encoding)
    _warn(doc)
    counts = count_speakers(doc)
    if not counts:
        print(f"{args.input}: no speakers ({len(doc)} words, none with a speaker)")
        return EXIT_OK
    sys.stdout.write(speaker_table(counts, len(doc)))
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    from editor.core.formats import read_any
    from editor.core.render import render

    doc = read_any(args.input, args.encoding)
    _warn(doc)
    text = render(doc, args.policy)
    sys.stdout.write(text + "\n" if text else "")
    return EXIT_OK


def _add_builtin_commands(subparsers: Subcommands) -> None:
    from editor.commandline.arguments import (add_batch_arguments, add_commas_argument, add_encoding_argument,
                                              add_force_argument, add_layout_arguments, add_policy_argument,
                                              add_turn_times_argument)

    p = subparsers.add_parser(
        "convert", help="convert a transcript between formats by file extension",
        description="Read IN and write OUT, each format chosen by its extension. Reads .txt .md .docx .srt "
                    ".vtt .sbv .ass .ssa .ttml .dfxp .smi .srv3 .json3 .srv1 .srv2 .html (noScribe) .otr "
                    ".json (Vosk, Whisper or YouTube's json3) .jsonl .stet; "
                    "writes .txt .md .docx .srt .vtt .sbv .ass .ttml .json .stet.")
    p.add_argument("input", metavar="IN", nargs="+", help="transcript to read (or several, folders, globs)")
    p.add_argument("-o", "--output", metavar="OUT", help="file to write (a folder for many inputs)")
    add_force_argument(p)
    add_policy_argument(p)
    add_commas_argument(p, restores=False)
    add_encoding_argument(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar (many inputs)")
    p.add_argument("--speaker", metavar="OLD=NEW", action="append",
                   help='rename a speaker ("Speaker 1=Ann"); repeat it for more; two given one '
                        "name are merged")
    add_layout_arguments(p)
    add_turn_times_argument(p)
    add_batch_arguments(p, kind="convert", inputs="input")
    p.set_defaults(handler=run_convert)

    p = subparsers.add_parser(
        "speakers", help="list a transcript's speakers",
        description="List the speakers of a transcript: each one's words, share of the words, "
                    "share of the spoken time (where words are timed) and turns.")
    p.add_argument("input", metavar="FILE", help="transcript to read")
    add_encoding_argument(p)
    p.set_defaults(handler=run_speakers)

    p = subparsers.add_parser("show", help="print a transcript as clean text",
                              description="Print the clean text of a transcript to stdout.")
    p.add_argument("input", metavar="FILE", help="transcript to read")
    add_policy_argument(p)
    add_encoding_argument(p)
    p.set_defaults(handler=run_show)


def command_modules() -> list[str]:
    """The ``cli`` modules present in this build."""
    found = []
    for package in COMMAND_PACKAGES:
        try:
            if importlib.util.find_spec(f"{package}.cli") is not None:
                found.append(f"{package}.cli")
        except ModuleNotFoundError:  # the package itself is not part of this build
            continue
    return found


class OneLineParser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line, as every other error of ``stet`` is:
    argparse printed the whole usage first (four lines for `stet restore`), and the line that
    says what was wrong came last, under it."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {' '.join(message.split())} "
                              f"(`{self.prog} --help` says how to use it)\n")


class StetParser(OneLineParser):
    """The ``stet`` parser; ``commands`` maps each subcommand's name to its parser."""

    commands: Mapping[str, argparse.ArgumentParser]


def build_parser() -> StetParser:
    parser = StetParser(
        prog="stet", description="Stet: edit transcripts; restore punctuation and capitals with "
                                 "confidences you review. Without a command, opens the editor.")
    parser.add_argument("-V", "--version", action="version", version=f"stet {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=OneLineParser)
    _add_builtin_commands(subparsers)
    for module in command_modules():
        importlib.import_module(module).add_parser(subparsers)
    parser.commands = subparsers.choices
    return parser


def _commands(parser: StetParser) -> dict[str, argparse.ArgumentParser]:
    return dict(parser.commands)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] in (["--version"], ["-V"]):  # answer before importing any subcommand
        print(f"stet {__version__}")
        return EXIT_OK
    parser = build_parser()
    commands = _commands(parser)
    if not args_list:
        if "gui" in commands:
            args_list = ["gui"]
        else:
            print("stet: the editor window is not part of this build yet; use a command below",
                  file=sys.stderr)
            parser.print_help()
            return EXIT_OK
    elif args_list[0] not in commands and not args_list[0].startswith("-") and (
            os.path.exists(args_list[0]) or os.path.splitext(args_list[0])[1]):
        # `stet FILE` (a desktop entry's "Open with"): the editor if present, else the text.
        args_list.insert(0, "gui" if "gui" in commands else "show")
    args, extra = parser.parse_known_args(args_list)
    if extra:  # said by the command they were given to, not by `stet` as a whole
        (commands.get(args_list[0]) or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if getattr(args, "batch", None):
        handler = _batch_or_single(args, handler, commands[args_list[0]])
    return _run(handler, args)


def _batch_or_single(args: argparse.Namespace, handler: Handler, command: argparse.ArgumentParser) -> Handler:
    """The batch runner when the command was given many inputs (editor.commandline.arguments says when),
    else the command's own handler with its one input, exactly as before batches existed."""
    from editor.commandline.arguments import batch_requested

    if batch_requested(args):
        from editor.batch.cli import run_batch

        return run_batch
    setattr(args, args.batch_inputs, getattr(args, args.batch_inputs)[0])
    if args.batch == "convert" and not args.output:
        command.error("the following arguments are required: -o/--output (or, for many inputs, "
                      "-o FOLDER or --to EXT)")
    return handler


def _run(handler: Handler, args: argparse.Namespace) -> int:
    from editor.core.errors import UsageError, UserError

    try:
        result = handler(args)
    except UsageError as err:
        _error(str(err))
        return EXIT_USAGE
    except UserError as err:
        _error(str(err))
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:  # `stet show FILE | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""
        _error(f"{where}{err.strerror or err}")
        return EXIT_USER_ERROR
    return EXIT_OK if result is None else int(result)


def _error(message: str) -> None:
    print(f"stet: error: {' '.join(message.split())}", file=sys.stderr)
