"""Speaker prefixes that diarizing recognisers and transcribers write before a speaker's words
("[SPEAKER_01]: ", "SPEAKER_00: ", "Ann: "), read as speakers where the file's pattern says so."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: What diarizing recognisers write before a speaker's words: WhisperX "[SPEAKER_01]: ", others
#: "SPEAKER_00: " or "Speaker 1: ", whisper.cpp "(speaker 1) " (always a speaker), and "Ann: " or "Dr. Jones: " (a capitalised
#: name of up to four words: a speaker only where the file has many, see `takes_prefixes`).
_STRONG_PREFIX = re.compile(r"^[ \t]*(?:\[(SPEAKER_\d+|Speaker \d+)\]:?|\[([^\[\]\n:]{1,60})\]:"
                            r"|(SPEAKER_\d+|Speaker (?:\d+|\?)):|\((?:speaker|Speaker) (\d+|\?)\)(?=[ \t]|$))[ \t]*")
_NAME_PREFIX = re.compile(r"^[ \t]*([^\W\d_][\w'’.-]*(?: [\w'’.-]+){0,3}):[ \t]+(?=\S)")
#: lower-case words a name may hold ("Ludwig van Beethoven")
_PARTICLES = frozenset({"de", "del", "der", "van", "von", "da", "di", "la", "le", "du", "bin", "al"})


def is_name(name: str) -> bool:
    """Whether words are shaped as a person's name: capitalised, particles ("van") aside."""
    words = name.split()
    return words[0][0].isupper() and all(w[0].isupper() or w[0].isdigit() or w in _PARTICLES
                                         for w in words[1:])


#: Any name a meeting app shows before a colon, as Zoom writes one at the start of every cue
#: ("jsmith: ", "iPhone de Pierre: ", "+1 415-555-0100: ", "Ann Lee (she/her): "): up to six words
_ANY_PREFIX = re.compile(r"^[ \t]*([^\s:<>\[\]][^:<>\[\]\n]{0,59}?):[ \t]+(?=\S)")
#: `cue_lines`'s mode where the first line of every cue begins with a name (see `names_every_cue`)
EVERY_CUE = "every cue"


#: Words that stand before a colon in subtitles and transcripts without naming anyone who speaks:
#: a film's credit lines ("Subtitles: @handle", in the languages subtitle sites credit in) and
#: labels within the words ("Note: ...", "Time: 10:30"). Hand-written: no library lists them.
#: A file where one of them is a speaker's name keeps the words, without that speaker; a
#: speaker so named is written "[Note]: ", which reads back as the speaker (`written_prefix`).
#: Roles that speak ("Translator:", "Interpreter:", "Narrator:") are not among them.
CREDIT_WORDS = frozenset({
    "subtitles", "subtitle", "subs", "subbed", "captions", "caption", "captioning", "closed captions",
    "translation", "translations", "transcript", "transcription",
    "sync", "synced", "synchro", "resync", "timing", "encoded", "ripped", "ripper", "release",
    "credits", "corrections", "corrected", "proofreading", "proofread", "edited", "reviewer",
    "downloaded from", "source", "website", "web", "facebook", "twitter", "instagram", "telegram",
    "email", "e-mail", "contact", "support us", "advertise", "sponsor", "sponsored",
    "sottotitoli", "untertitel", "subtítulos", "subtitulos", "subtitulado", "legendas", "legenda",
    "sous-titres", "ondertiteling", "ondertitels", "napisy", "altyazı", "titulky", "feliratok",
    "traducción", "traduccion", "traduzione", "übersetzung", "tradução", "traduction", "vertaling",
    "tłumaczenie", "çeviri", "překlad",
})
LABEL_WORDS = frozenset({
    "note", "notes", "nb", "ps", "p.s", "time", "date", "location", "place", "setting", "scene",
    "warning", "caution", "update", "edit", "chapter", "part", "episode", "season", "title",
    "subject", "topic", "re", "fwd", "to", "from", "cc", "tel", "phone", "fax", "url", "link",
    "example", "summary", "agenda", "duration", "recorded", "recording", "language",
})
_NOT_SPEAKERS = CREDIT_WORDS | LABEL_WORDS
#: A line that credits who made the subtitles rather than saying anything: "Translated by:",
#: "Sous-titres par :", "Untertitel von:"
_BY_CREDIT = re.compile(r"^[ \t]*[^\W\d_][\w'’. &+,-]{0,40}?[ \t](?:by|par|von|di|por|door|przez|av|af|da)"
                        r"[ \t]*:", re.IGNORECASE)
#: The same credit without its colon, as subtitle sites sign a file's last cue ("Subtitles by
#: explosiveskull", "Sync & corrections by n17t01"): the work, then "by" and who did it, in a
#: short line, marks a restoration put in allowed. Only the words of that work: "Written by..."
#: may well be said.
_CREDITED_WORK = (r"(?:subtitles|subtitled|subs|captions|captioned|captioning|sync|synced|synchroni[sz]ed"
                  r"|resync|resynced|corrections|corrected|translation|translated|ripped|encoded|transcribed"
                  r"|transcript|timing|timed|proofread|proofreading|improved|sous-titres|untertitel)")
_BY_CREDIT_LINE = re.compile(rf"^[ \t]*{_CREDITED_WORK}(?:[ \t]*(?:&|\+|,|and|et|und)[ \t]*{_CREDITED_WORK})*"
                             r"[.,;]?[ \t]+(?:by|par|von)[.,;]?[ \t]+\S[^\n]{0,60}$", re.IGNORECASE)
#: What follows a credit's colon: handles, addresses and links only ("@moviesubs", "www.x.com")
_HANDLE = (r"(?:@[\w.]+|(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+\.[\w.]+"
           r"|[\w-]+\.(?:com|org|net|tv|io|me|info|co)(?:/\S*)?)")
#: Each handle is matched once, as its first reading takes it (an atomic group): a link's \S+
#: may hold the next handle, and separators are optional, so the engine tried every way of cutting
#: a run of handles and took time exponential in them ("www." 28 times: 1.5 s, and doubling with
#: every two more). Handles run together without a separator ("@subsexample.com") are no list.
_HANDLES = re.compile(rf"^(?>{_HANDLE})(?:[ \t]*(?:[&,+/|]|and)?[ \t]*(?>{_HANDLE}))*$", re.IGNORECASE)


def is_credit(line: str) -> bool:
    """Whether a line credits the subtitles' makers ("Subtitles: @handle", "Translated by: Jane
    Doe", "Sync: www.example.com", "Sync & corrections by n17t01", "www.example.com" alone)
    instead of being words someone says: it has no speaker, and a
    speaker named before it does not go on through it."""
    found = _ANY_PREFIX.match(line)
    if found is None:  # a credit without a colon, or a line of links and handles alone
        return ((_BY_CREDIT_LINE.match(line) is not None and len(line.split()) <= 10
                 and not line.rstrip().endswith("?"))  # "Translated by whom?" is asked
                or _HANDLES.match(line.strip()) is not None)
    label = " ".join(found.group(1).split()).lower()
    return (label in CREDIT_WORDS or _BY_CREDIT.match(line) is not None
            or _HANDLES.match(line[found.end():].strip()) is not None)


def speaker_prefix(line: str, any_name: bool = False) -> tuple[str | None, str]:
    """(name, the rest of the line) for a line that begins with a speaker prefix, else (None,
    line). The rest keeps no leading space. ``any_name``: any name up to the colon, not only one
    shaped as a name (see `names_every_cue`). A credit or a label ("Subtitles: @handle",
    "Note: ...", "Time: 10:30": `CREDIT_WORDS`, `LABEL_WORDS`, `is_credit`) names no one."""
    found = _ANY_PREFIX.match(line) if any_name else None
    if found is not None and (len(found.group(1).split()) > 6 or is_credit(line)):
        found = None
    if found is None:
        found = _STRONG_PREFIX.match(line)
    if found is None:
        found = _NAME_PREFIX.match(line)
        if found is None or not is_name(found.group(1)):
            return None, line
        if (" ".join(found.group(1).split()).lower() in _NOT_SPEAKERS
                or _HANDLES.match(line[found.end():].strip())):
            return None, line
    name = next(g for g in found.groups() if g)
    if found.re is _STRONG_PREFIX and found.group(4):  # whisper.cpp --diarize: "(speaker 1) ", "(speaker ?) " where unsure
        name = f"Speaker {name}"
    return " ".join(name.split()), line[found.end():].lstrip()


def names_every_cue(first_lines: Sequence[str]) -> bool:
    """Whether every cue begins with "Name: " and names come back, as in Zoom's transcripts,
    where a name is whatever a person calls themselves ("jsmith", "iPhone de Pierre"): then the
    words before the first colon of each cue are its speaker. A credit ("Subtitles: @handle")
    names no one and is left out of the count."""
    names = [speaker_prefix(line, any_name=True)[0] for line in first_lines if not is_credit(line)]
    return len(names) >= 3 and all(names) and len(set(names)) < len(names)


def written_prefix(name: str) -> str:
    """The prefix a writer puts before a speaker's words: "Ann: ", or "[Doe, Jane]: " for a name
    that would not be read back as one ("jsmith", "Doe, Jane", "+1 415-555-0100"), as WhisperX
    brackets its."""
    return f"{name}: " if speaker_prefix(f"{name}: x") == (name, "x") else f"[{name}]: "


def reads_as_name(line: str) -> bool:
    """Whether a line of a speaker's words would be read back as another speaker's name where the
    file takes prefixes ("Ohio: Cleveland, mostly."): a writer puts their own name before it."""
    return speaker_prefix(line)[0] is not None


_NUMBERED = re.compile(r"SPEAKER_\d+|Speaker (?:\d+|\?)")


def is_strong_prefix(line: str) -> bool:
    """A recogniser's numbered speaker ("SPEAKER_00: ", "[Speaker 1]"), never a word."""
    name = speaker_prefix(line)[0]
    return name is not None and _NUMBERED.fullmatch(name) is not None


def takes_prefixes(lines: Sequence[str]) -> bool:
    """Whether the speaker prefixes at the start of these lines (of cues, or paragraphs) name
    speakers: a recogniser's "SPEAKER_00: " always does; a "Name: " does where it is the file's
    pattern, not chance: one name on half the lines (three or more); two names or more, and
    labels on half the lines, or from the first line
    on (credits aside: as Stet writes a speaker at each change), or three labels or more with a
    name coming back on one line in ten or more (an interview's turns). A film's subtitles that
    name a voice now and then, a credit line ("Subtitles: @handle") or a "Note: " in the words
    are no such pattern."""
    names = [name for name in (speaker_prefix(line)[0] for line in lines) if name]
    if not names:
        return False
    if any(is_strong_prefix(line) for line in lines):
        return True
    if len(set(names)) < 2:  # one name: a pattern only where it labels most lines, three or more
        return len(names) >= 3 and len(names) * 2 >= len(lines)
    first = next((line for line in lines if not is_credit(line)), "")
    return (len(names) * 2 >= len(lines) or speaker_prefix(first)[0] is not None
            or (len(names) >= 3 and len(set(names)) < len(names) and len(names) * 10 >= len(lines)))
