"""`stet learned`: see, edit, export or forget what Stet learned from your reviews."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from editor.commandline.arguments import Subcommands


def add_parser(subparsers: Subcommands) -> None:
    from editor.commandline.arguments import add_force_argument

    p = subparsers.add_parser(
        "learned", help="show, edit, export or forget what Stet learned from your reviews",
        description="Stet remembers the case forms you write or choose mid-sentence (names, acronyms, "
                    "mixed case such as iPad: the user lexicon, used by every later restoration before the "
                    "model's own), and what a review taught it about a language and set of speakers. "
                    "Without options, lists the lexicon. The shipped model is never changed.")
    p.add_argument("--add", nargs="+", metavar="FORM", default=[], help="remember these forms (e.g. Okafor NASA iPad)")
    p.add_argument("--remove", nargs="+", metavar="WORD", default=[], help="forget these words' forms")
    p.add_argument("--export", metavar="FILE", help="write the lexicon's forms to FILE, one per line")
    add_force_argument(p)
    p.add_argument("--profiles", action="store_true",
                   help="list what reviews taught per language and set of speakers (a profile: its key, "
                        "what it was learned from); `stet restore --learned-from KEY` applies one to any file")
    p.add_argument("--reset", action="store_true", help="forget everything Stet learned (lexicon and adaptations)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from editor.core.review.lexicon import UserLexicon, check_forms
    from editor.commandline.outputs import check_output

    if args.profiles:
        from editor.restore.learning.learned_store import list_profiles

        found = list_profiles()
        if not found:
            print("nothing learned from reviews yet", file=sys.stderr)
        for prof in found:
            print(f"{prof.key}\t{prof.words} reviewed words\t{prof.label}")
            for file, when, words in prof.sources:  # where each share came from
                print(f"\tfrom {file or 'a review'}" + (f", {when}" if when else "") + f" ({words} words)")
        return 0
    lex = UserLexicon.load()
    changed = False
    if args.reset:
        from editor.restore.learning.learned_store import reset_learned

        n = reset_learned()
        lex.clear()
        lex.save()
        print(f"forgot the lexicon and {n} adaptation{'s' if n != 1 else ''}", file=sys.stderr)
        return 0
    if args.add:
        forms = check_forms({f.lower(): f for f in args.add}, "--add")
        changed |= bool(lex.learn(forms))
    if args.remove:
        missing = [w for w in args.remove if w.lower() not in lex.forms]
        if missing:  # a typo would otherwise pass for a word forgotten
            print(f"stet: warning: not in the lexicon: {', '.join(missing)}", file=sys.stderr)
        changed |= lex.remove(args.remove) > 0
    if changed:
        lex.save()
    if args.export:
        check_output(args.export, [lex.path], force=args.force)
        lex.export(Path(args.export))
        return 0
    if not (args.add or args.remove):
        if not len(lex):
            print(f"the lexicon is empty ({lex.path})", file=sys.stderr)
        for w, form in sorted(lex.forms.items()):
            where = lex.origin(w)  # which review taught it, and when
            print(f"{form}\t{where}" if where else form)
    return 0
