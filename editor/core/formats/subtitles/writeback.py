"""A subtitle file written back to its own format as it came: its lines patched where the person
changed words, every other byte kept (byte-order mark, encoding, line ends, header, NOTE, STYLE
and REGION blocks, identifiers, time lines, settings, tags, ruby).

Done by hand: pysubs2 keeps no file's structure (it rewrites every cue, drops NOTE blocks and
ids), and no library found patches a cue's text in place, as Subtitle Edit does. The reader keeps
the file as it came and where each cue stands in it (`subtitles.SOURCE`); a changed cue's words
are found in its text as written (past tags, character references and ruby) and only the
characters that changed are rewritten.
"""

from __future__ import annotations

import difflib
import html
import html.entities
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editor.core.document.transcript import SourceCue, Transcript
from editor.core.formats.subtitles.writing import (OutCue, TimedWord, line_voices, source_lines,
                                             source_runs, timed_words, wrap_lines)
from editor.core.formats.subtitles.prefixes import EVERY_CUE, speaker_prefix
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.cues import (BREAK_TAG, CUE_TAG, RUBY_TEXT, cue_lines, is_italic, visible, words_of_line)
from editor.core.formats.subtitles.reading import PREFIXES, SOURCE, words_digest
from editor.core.formats._common import PathLike
from editor.core.render import RenderPolicy, render_words
from editor.core.document.text import CHARACTER_REFERENCE, strip_controls

#: What ends a line as the subtitle readers count lines (`text.normalize_newlines`; only CR and LF
#: end a line in SubRip, SubViewer and WebVTT): CR CR LF, CR LF, LF CR, CR, LF, read left to right.
_LINE_END = re.compile("\r\r\n|\r\n|\n\r|\r|\n")
_CLOSING_TAG = re.compile(r"</[^<>\n]*>")


@dataclass(frozen=True, slots=True)
class Source:
    """A subtitle file as it came: its lines, each (text, what ended it), its encoding and
    byte-order mark, and where each kept cue stands (`subtitles.Cue.span`), in the order of
    ``Metadata.cues``; ``spans`` is None where the reader kept no cues (rolling captions)."""

    fmt: str
    lines: list[tuple[str, str]]
    encoding: str
    bom: bool
    spans: list[tuple[int, int, int] | None] | None
    digest: str
    #: for rolling captions, read once each (see `rolling.collapse_rolling`): the cues' spans
    #: ("cues"), every place each token is shown ("places") and the tokens as read ("words")
    rolling: dict[str, Any] | None = None

    #: the line end most lines have ("\\n" for a file of one line)
    newline: str = "\n"


def source_of(transcript: Transcript, fmt: str, path: PathLike) -> Source | None:
    """The file the transcript was read from, if it was a ``fmt`` file whose layout was kept and
    ``path`` (the file to write) has its extension."""
    found = transcript.metadata.extra.get(SOURCE)
    if not isinstance(found, dict) or found.get("format") != fmt \
            or found.get("suffix") != Path(path).suffix.lower():
        return None
    text, encoding, digest = found.get("text"), found.get("encoding"), found.get("digest")
    if not isinstance(text, str) or not isinstance(encoding, str) or not isinstance(digest, str):
        return None
    spans = found.get("cues")
    if spans is not None:
        if not isinstance(spans, list) or len(spans) != len(transcript.metadata.cues):
            spans = None
        else:
            spans = [tuple(s) if isinstance(s, list | tuple) and len(s) == 3
                     and all(isinstance(n, int) for n in s) else None for s in spans]
    rolling = found.get("rolling")
    lines = split_lines(text)
    ends = Counter(end for _, end in lines if end)
    return Source(fmt, lines, encoding, bool(found.get("bom")), spans, digest,
                  rolling if isinstance(rolling, dict) else None,
                  ends.most_common(1)[0][0] if ends else "\n")


def split_lines(text: str) -> list[tuple[str, str]]:
    """The lines of ``text`` as the reader numbers them, each with what ended it ("" for the
    last); joined back they are the text."""
    out: list[tuple[str, str]] = []
    at = 0
    for end in _LINE_END.finditer(text):
        out.append((text[at:end.start()], end.group()))
        at = end.end()
    out.append((text[at:], ""))
    return out


def encode(text: str, source: Source | None) -> tuple[bytes, list[str]]:
    """Text with "\\n" line ends as the source file's bytes: its line ends (the commonest, where
    it mixes them), its encoding and byte-order mark; UTF-8 without a source. A character the
    source's encoding cannot hold makes it UTF-8, and that is said."""
    if source is None:
        return text.encode("utf-8"), []
    if source.newline != "\n":
        text = text.replace("\n", source.newline)
    return encode_as(text, source)


def encode_as(text: str, source: Source) -> tuple[bytes, list[str]]:
    """Text as it is, in the source's encoding with its byte-order mark (see `encode`)."""
    codec = source.encoding
    bom = "\ufeff" if source.bom else ""
    try:
        return (bom + text).encode(_without_mark(codec)), []
    except UnicodeEncodeError as err:
        bad = err.object[err.start:err.end]
        return (bom + text).encode("utf-8"), [
            f"the file came in {codec}, which cannot hold {bad!r}: it was written as UTF-8"]


def _without_mark(codec: str) -> str:
    """The codec that writes no byte-order mark of its own (the mark is written as U+FEFF)."""
    name = codec.lower().replace("_", "-")
    return {"utf-16": "utf-16-le", "utf-32": "utf-32-le", "utf-8-sig": "utf-8"}.get(name, codec)


def unchanged(transcript: Transcript, policy: RenderPolicy, source: Source) -> bool:
    """Whether the words (with their speakers) are as they were read."""
    return words_digest((w.text, w.speaker) for w in render_words(transcript, policy)) == source.digest


#: Writes a cue's lines afresh in a format (its text, the speaker of the cue before it).
CueText = Callable[[OutCue, "str | None"], str]


def write_back(transcript: Transcript, policy: RenderPolicy, path: PathLike, source: Source,
               escape: Callable[[str], str], cue_text: CueText,
               layout: SubtitleLayout = DEFAULT_LAYOUT) -> tuple[bytes, list[str]] | None:
    """The file the transcript was read from (``source``) with the person's changes: a cue
    whose words are as read stays byte for byte; a changed cue keeps its identifier, time line
    and settings, and its text is patched (`patch_text`; ``escape`` writes new characters,
    ``cue_text`` a cue whose text cannot be patched); a cue whose words were all deleted is
    left out with its block. None where the file cannot be patched (its cues were not kept).
    A changed cue's lines are as wide as `SubtitleLayout.file_width` allows."""
    if unchanged(transcript, policy, source):
        return encode_as("".join(text + end for text, end in source.lines), source)
    cues = transcript.metadata.cues
    if source.rolling is not None and not cues:
        return _rolling_back(transcript, policy, source, escape)
    if source.spans is None or not cues or any(s is None for s in source.spans):
        return None
    words = timed_words(transcript, policy, path)
    runs = source_runs(transcript, words)
    if runs is None:
        return None
    by_cue: dict[int, list[TimedWord]] = {}
    for n, found in runs:
        by_cue.setdefault(n, []).extend(found)
    mode = transcript.metadata.extra.get(PREFIXES)
    prefixed: bool | str = mode if mode is True or mode == EVERY_CUE else False
    width = layout.file_width(line for cue in cues for line in source_lines(cue, prefixed, layout))
    lines = list(source.lines)
    # cue by cue from the last, so that the line numbers of the cues before stay right
    previous_voice: dict[int, str | None] = {}
    voice = None
    for n, cue in enumerate(cues):
        previous_voice[n] = voice
        words_of = by_cue.get(n)
        voice = words_of[-1].speaker if words_of else cue.speaker
    for n in range(len(cues) - 1, -1, -1):
        cue, span = cues[n], source.spans[n]
        assert span is not None  # checked above
        block, top, bottom = span
        run = by_cue.get(n)
        if run is None:
            if cue.token_ids:  # every word deleted: the cue goes, with the blank lines after it
                _drop_block(lines, block, bottom)
            continue
        ids = tuple(transcript[w.index].id for w in run)
        texts = tuple(w.text for w in run)
        speakers = [w.speaker for w in run]
        was = dict(zip(cue.token_ids, _speakers(cue, prefixed)))
        same_speakers = all(was[tid] == who if tid in was else who in was.values()
                            for tid, who in zip(ids, speakers))
        if ids == cue.token_ids and texts == cue.words and same_speakers:
            continue
        at = _text_lines([text for text, _ in lines[top:bottom]], cue.text)
        patched = None
        if same_speakers and at is not None:
            patched = patch_text("\n".join(lines[top + i][0] for i in at), cue, ids, texts, escape, prefixed)
        if patched is None:
            kept = _plain_lines(run, ids, cue, prefixed, width)
            out = OutCue(cue.start, cue.end, kept, run[0].speaker, is_italic(cue.text),
                         voices=line_voices(kept, run))
            patched = cue_text(out, previous_voice[n])
        elif _letters(texts) != _letters(cue.words):  # words typed in, not marks or capitals
            patched = wrap_long(patched, width)
        _put_text(lines, top, at if at is not None else list(range(bottom - top)), patched.split("\n"),
                  source.newline)
    return encode_as("".join(text + end for text, end in lines), source)


def rolling_written_back(transcript: Transcript, policy: RenderPolicy) -> str | None:
    """The extension (".vtt") of the rolling captions ``transcript`` was read from where writing
    to that extension writes them back as they came (`write_back`: every cue, each line shown
    twice, its lines and times the file's own, only marks and capitals patched), so that no
    layout applies to them; None where such a file would be cut afresh, or was not rolling."""
    found = transcript.metadata.extra.get(SOURCE)
    if not isinstance(found, dict) or transcript.metadata.cues or found.get("rolling") is None:
        return None  # (before `source_of`, which splits the whole file into lines)
    fmt, suffix = found.get("format"), found.get("suffix")
    if not isinstance(fmt, str) or not isinstance(suffix, str):
        return None
    source = source_of(transcript, fmt, f"captions{suffix}")
    if source is None or source.rolling is None:
        return None
    # what is escaped decides no more than the characters written, not whether a line is patched
    if unchanged(transcript, policy, source) or _rolling_back(transcript, policy, source, html.escape) is not None:
        return suffix
    return None


def _rolling_back(transcript: Transcript, policy: RenderPolicy, source: Source,
                  escape: Callable[[str], str]) -> tuple[bytes, list[str]] | None:
    """Rolling captions (YouTube's automatic ones: each line shown twice, words timed by inline
    tags) with their words changed in every place they are shown, each cue as it came. Only
    words changed in place (marks and case, as a restoration changes them) are written so: None
    where words were deleted, added or typed over (then the cues are cut afresh)."""
    rolling = source.rolling or {}
    spans, places, read = rolling.get("cues"), rolling.get("places"), rolling.get("words")
    words = render_words(transcript, policy)
    if not (isinstance(spans, list) and isinstance(places, list) and isinstance(read, list)) \
            or len(words) != len(read) or len(places) != len(read) \
            or [t.id for t in transcript.tokens] != list(range(len(read))):
        return None
    # (cue, line) -> {word of the line: token}
    shown: dict[tuple[int, int], dict[int, int]] = {}
    for token, at in enumerate(places):
        for cue, line, word in at:
            shown.setdefault((cue, line), {})[word] = token
    lines = list(source.lines)
    for (cue, line), tokens in shown.items():
        if not any(words[t].text != read[t] for t in tokens.values()):
            continue
        span = spans[cue] if 0 <= cue < len(spans) else None
        if not isinstance(span, list) or len(span) != 3 or not 0 <= span[1] + line < span[2]:
            return None
        raw = lines[span[1] + line][0]
        order = [tokens[k] for k in sorted(tokens)]
        if sorted(tokens) != list(range(len(order))):
            return None
        fake = SourceCue(tuple(order), 0.0, 0.0, strip_controls(raw, False), tuple(read[t] for t in order))
        patched = patch_text(raw, fake, order, [words[t].text for t in order], escape,
                             bool(rolling.get("prefixed")))
        if patched is None or "\n" in patched:
            return None
        lines[span[1] + line] = (patched, lines[span[1] + line][1])
    return encode_as("".join(text + end for text, end in lines), source)


def _text_lines(raw: list[str], text: str) -> list[int] | None:
    """Which of a cue's lines as written (``raw``) hold its text as read (``text``): all of them,
    or fewer where the reader passed some over (the number of a cue that lost its time line,
    joined to the cue before); None where the text is not found in them in order."""
    out: list[int] = []
    at = 0
    for line in text.split("\n"):
        while at < len(raw) and strip_controls(raw[at], False) != line:
            at += 1
        if at == len(raw):
            return None
        out.append(at)
        at += 1
    return out


def _put_text(lines: list[tuple[str, str]], top: int, at: list[int], new: list[str], newline: str) -> None:
    """Put a cue's new text lines in place of its lines ``top + at``; lines between them that
    are not its text stay. More lines than before go after the last; fewer leave out the last."""
    if not at:  # a cue without text: its lines go after its time line
        end = lines[top - 1][1]
        lines[top - 1] = (lines[top - 1][0], end or newline)
        lines[top:top] = [(line, newline) for line in new[:-1]] + [(new[-1], end)]
        return
    keep = min(len(at), len(new)) - 1
    for k in range(keep):
        lines[top + at[k]] = (new[k], lines[top + at[k]][1])
    last, old_last = top + at[keep], top + at[-1]
    end = lines[old_last][1]
    # more lines: after the last; fewer: the lines from the last kept one to the old last go,
    # with what stood between them (a lost cue's number)
    lines[last:old_last + 1] = [(line, end or newline) for line in new[keep:-1]] + [(new[-1], end)]


def _letters(words: Sequence[str]) -> str:
    """Words without their marks and case: what a restoration does not change."""
    return "".join(ch for word in words for ch in word.lower() if ch.isalnum())


def _speakers(cue: SourceCue, prefixed: bool | str) -> list[str | None]:
    """The speaker each of the cue's words was read with."""
    out: list[str | None] = []
    for line, voice in cue_lines(cue.text, prefixed):
        out.extend([voice or cue.speaker] * len(words_of_line(line)))
    return out


def _drop_block(lines: list[tuple[str, str]], block: int, bottom: int) -> None:
    """Leave out lines[block:bottom] (a cue) and the blank lines after it; at the file's end,
    the blank lines before it instead, so that the file ends as it did."""
    after = bottom
    while after < len(lines) and not lines[after][0].strip():
        after += 1
    if after < len(lines):
        del lines[block:after]
        return
    before = block
    while before > 0 and not lines[before - 1][0].strip():
        before -= 1
    rest = lines[bottom:]
    del lines[before:]
    if rest:
        lines.extend(rest)
    elif lines:
        lines[-1] = (lines[-1][0], "")


def _plain_lines(run: Sequence[TimedWord], ids: Sequence[int], cue: SourceCue,
                 prefixed: bool | str, width: int) -> tuple[str, ...]:
    """A changed cue's words on its own lines (broken where its lines began) where they fit
    ``width``, else wrapped to it: never more than one cue."""
    starts = set(cue.line_starts)
    lines: list[list[str]] = []
    for w, tid in zip(run, ids):
        if not lines or tid in starts:
            lines.append([])
        lines[-1].append(w.text)
    joined = [" ".join(line) for line in lines]
    if all(len(line) <= width for line in joined):
        return tuple(joined)
    return tuple(wrap_lines([w.text for w in run], width))


# -- patching a cue's text ------------------------------------------------------------------------
def visible_map(raw: str) -> tuple[str, list[int], list[int]]:
    """A cue's text as seen (tags, ruby text and control characters left out, character
    references decoded, <br> as a line break), and for each character seen where it is written:
    its start and end in ``raw``."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at, n = 0, len(raw)
    while at < n:
        ch = raw[at]
        if ch.isprintable() and ch not in "<{&":  # most of a cue's text
            out.append(ch)
            starts.append(at)
            ends.append(at + 1)
            at += 1
            continue
        found = RUBY_TEXT.match(raw, at) or CUE_TAG.match(raw, at)
        if found is not None and not BREAK_TAG.fullmatch(found.group()):
            at = found.end()
            continue
        found = BREAK_TAG.match(raw, at)
        if found is not None:
            out.append("\n")
            starts.append(at)
            ends.append(found.end())
            at = found.end()
            continue
        found = CHARACTER_REFERENCE.match(raw, at) if ch == "&" else None
        seen = html.unescape(found.group()) if found is not None else strip_controls(ch, False)
        end = found.end() if found is not None else at + 1
        for ch in seen:
            out.append(ch)
            starts.append(at)
            ends.append(end)
        at = end
    return "".join(out), starts, ends


def collapsed_map(lines: list[list[tuple[str, int, int]]], breaks: list[tuple[int, int]]
                  ) -> tuple[str, list[int], list[int]]:
    """A text as markup shows it (TTML, SAMI) from its characters line by line, each (character,
    start and end where it is written), and where each line after the first begins (its <br>'s
    start and end): white space collapsed to one space and none at a line's ends, as the readers
    collapse it, lines without words left out; a collapsed space spans its run."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for k, line in enumerate(lines):
        words: list[tuple[str, int, int]] = []
        for ch, start, end in line:
            if not ch.isspace():
                words.append((ch, start, end))
            elif words and words[-1][0] != " ":
                words.append((" ", start, end))
            elif words:  # a run of white space is one space, spanning the run
                words[-1] = (" ", words[-1][1], end)
        if words and words[-1][0] == " ":
            words.pop()
        if not words:
            continue
        if out:
            out.append("\n")
            starts.append(breaks[k - 1][0])
            ends.append(breaks[k - 1][1])
        for ch, start, end in words:
            out.append(ch)
            starts.append(start)
            ends.append(end)
    return "".join(out), starts, ends


def _word_spans(seen: str, prefixed: bool | str) -> list[tuple[int, int]] | None:
    """Where each word the reader took from a cue stands in its text as seen (start, end: the
    word and its mark), in order; None where they cannot be found."""
    spans: list[tuple[int, int]] = []
    offset = 0
    first = True
    for line in seen.split("\n"):
        body, at = line, 0
        if prefixed and line.strip():
            name, rest = speaker_prefix(line, any_name=prefixed == EVERY_CUE and first)
            if name is not None:
                at = len(line) - len(rest)
                body = rest
        if line.strip():
            first = False
        cursor = at
        for piece in words_of_line(body):
            found = line.find(piece.surface, cursor)
            if found < 0:
                return None
            end = found + len(piece.surface)
            if piece.punct and line.startswith(piece.punct, end):
                end += len(piece.punct)
            spans.append((offset + found, offset + end))
            cursor = end
        offset += len(line) + 1
    return spans


def patch_text(raw: str, cue: SourceCue, ids: Sequence[int], texts: Sequence[str],
               escape: Callable[[str], str], prefixed: bool | str = False) -> str | None:
    """The cue's text as written (``raw``, lines parted by "\\n") with its words changed to
    ``texts`` (token ids ``ids``): each changed character rewritten where it stands, a mark put
    after its word (past the tags that close right after the word when more of the line
    follows: "<b>Stop</b>, he said"), a deleted word taken out with the space before it, a word
    typed in put after the word before it; tags, references and spacing elsewhere as they were.
    None where the words cannot be found in the text, or where no word of the cue is left."""
    return patch_seen(raw, visible_map(raw), cue, ids, texts, escape, prefixed)


def patch_seen(raw: str, seen_map: tuple[str, list[int], list[int]], cue: SourceCue, ids: Sequence[int],
               texts: Sequence[str], escape: Callable[[str], str], prefixed: bool | str = False, *,
               drop_emptied: bool = True) -> str | None:
    """`patch_text` for a text whose characters as seen (``seen_map``: the text, and where each
    character starts and ends in ``raw``) another format's map gives (SubStation Alpha's override
    blocks and \\N, TTML's elements and collapsed white space). ``drop_emptied``: a line of
    ``raw`` left without words goes (only where raw's lines are the cue's lines)."""
    seen, starts, ends = seen_map
    reader = "\n".join(visible(line) for line in BREAK_TAG.sub("\n", cue.text).split("\n"))
    if seen != reader:
        return None
    spans = _word_spans(seen, prefixed)
    if spans is None or len(spans) != len(cue.words) or any(
            seen[a:b] != word for (a, b), word in zip(spans, cue.words)):
        return None
    old = {tid: k for k, tid in enumerate(cue.token_ids)}
    kept = [old[tid] for tid in ids if tid in old]
    if not kept or kept != sorted(kept):
        return None
    edits: list[tuple[int, int, str]] = []  # (raw start, raw end, written there), in order

    def put(start: int, end: int, text: str) -> None:
        edits.append((start, end, text))

    # words typed in, each run between two old words: in place of the first word deleted there
    # (typed over it), else after the word before them, or before the cue's first word left
    runs: list[tuple[list[str], int | None, int | None]] = []
    pending: list[str] = []
    anchor: int | None = None
    for tid, text in zip(ids, texts):
        if tid in old:
            if pending:
                runs.append((pending, anchor, old[tid]))
                pending = []
            anchor = old[tid]
        else:
            pending.append(text)
    if pending:
        runs.append((pending, anchor, None))
    gone = {k for k, tid in enumerate(cue.token_ids) if tid not in set(ids)}
    slots: dict[int, str] = {}  # deleted word -> the words typed over it
    placed: set[int] = set()  # the runs so put
    for n, (words, after, before) in enumerate(runs):
        over = [d for d in range(0 if after is None else after + 1, len(spans) if before is None else before)
                if d in gone]
        if over:
            slots[over[0]] = " ".join(words)
            placed.add(n)
    tails: dict[int, int] = {}  # old word -> where what follows it goes in raw
    for k, (a, b) in enumerate(spans):
        if k in slots:  # typed over: rewritten as the new words, where it stood and in its tags
            tails[k] = _patch_word(seen, raw, starts, ends, a, b, slots[k], escape, put)
        elif k in gone:
            _delete_word(seen, starts, ends, spans, k, put)
        else:
            tails[k] = _patch_word(seen, raw, starts, ends, a, b, texts[ids.index(cue.token_ids[k])],
                                   escape, put)
    for n, (words, after, before) in enumerate(runs):
        if n in placed:
            continue
        if after is None:
            assert before is not None  # some word of the cue is kept
            put(starts[spans[before][0]], starts[spans[before][0]], escape(" ".join(words) + " "))
        else:
            put(tails[after], tails[after], escape(" " + " ".join(words)))
    patched = _apply(raw, edits)
    return _drop_emptied_lines(patched, raw) if drop_emptied else patched


def _patch_word(seen: str, raw: str, starts: list[int], ends: list[int], a: int, b: int, new: str,
                escape: Callable[[str], str], put: Callable[[int, int, str], None]) -> int:
    """Rewrite the word seen[a:b] as ``new``, character by character; where what follows the
    word goes in raw (after a mark added at its end)."""
    old = seen[a:b]
    tail = ends[b - 1]
    if old == new:
        return tail
    if escape(new) != "".join(map(escape, new)):  # escaped by its context ("&amp;" in SubRip): whole
        put(starts[a], starts[a], escape(new))
        for m in range(a, b):
            put(starts[m], ends[m], "")
        return tail
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        common = min(i2 - i1, j2 - j1)
        for m in range(common):  # a letter for a letter (a capital): where the letter was
            if old[i1 + m] != new[j1 + m]:
                at = a + i1 + m
                put(starts[at], ends[at], _as_written(raw[starts[at]:ends[at]], new[j1 + m], escape))
        for m in range(i1 + common, i2):  # letters or marks gone
            put(starts[a + m], ends[a + m], "")
        if j2 - j1 > common:  # marks or letters added
            added = escape(new[j1 + common:j2])
            i = i1 + common
            if i == 0:
                put(starts[a], starts[a], added)
            elif i < len(old):
                put(ends[a + i - 1], ends[a + i - 1], added)
            else:  # at the word's end: past the tags closing there when the line goes on
                at = ends[b - 1]
                if b < len(seen) and seen[b] != "\n":
                    while (found := _CLOSING_TAG.match(raw, at)) is not None:
                        at = found.end()
                put(at, at, added)
                tail = at
    return tail


def _as_written(was: str, ch: str, escape: Callable[[str], str]) -> str:
    """``ch`` written in place of ``was`` (one character as the file wrote it): as a character
    reference of the same kind where ``was`` is one ("&eacute;" -> "&Eacute;", "&#233;" ->
    "&#201;", "&#xe9;" -> "&#xc9;" with the hex digits in the file's case), else as the format
    escapes it."""
    if not was.startswith("&") or CHARACTER_REFERENCE.fullmatch(was) is None:
        return escape(ch)
    if was.startswith(("&#x", "&#X")):
        digits = f"{ord(ch):x}"
        return f"{was[:3]}{digits.upper() if was[3:-1].isupper() else digits};"
    if was.startswith("&#"):
        return f"&#{ord(ch)};"
    name = html.entities.codepoint2name.get(ord(ch))
    return f"&{name};" if name is not None else f"&#{ord(ch)};"


def _delete_word(seen: str, starts: list[int], ends: list[int], spans: list[tuple[int, int]], k: int,
                 put: Callable[[int, int, str], None]) -> None:
    """Take word ``k`` out, with the spaces before it on its line (after it, for a line's first
    word)."""
    a, b = spans[k]
    lo = a
    while lo > 0 and seen[lo - 1] in " \t":
        lo -= 1
    hi = b
    if lo == 0 or seen[lo - 1] == "\n":
        lo = a
        while hi < len(seen) and seen[hi] in " \t":
            hi += 1
    for m in range(lo, hi):
        put(starts[m], ends[m], "")


def _apply(raw: str, edits: list[tuple[int, int, str]]) -> str:
    """``raw`` with the edits made: at one place, in the order they were made; a span already
    rewritten is not rewritten again."""
    out: list[str] = []
    cursor = 0
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1] > e[0])):
        start = max(start, cursor)
        out.append(raw[cursor:start])
        out.append(text)
        cursor = max(cursor, end)
    out.append(raw[cursor:])
    return "".join(out)


def _drop_emptied_lines(text: str, raw: str) -> str:
    """A line whose words were all deleted goes, its tags moved to the line after it (before
    it, for the last line), so that what they open or close stays balanced."""
    before = raw.split("\n")
    after = text.split("\n")
    if len(before) != len(after):
        return text
    out: list[str] = []
    carried = ""
    for was, line in zip(before, after):
        if visible(was).strip() and not visible(line).strip():
            carried += "".join(CUE_TAG.findall(line))
            continue
        out.append(carried + line)
        carried = ""
    if carried:
        if not out:
            return text
        out[-1] += carried
    return "\n".join(out)


def wrap_long(text: str, width: int) -> str:
    """A patched cue's lines that outgrew ``width`` broken within the cue, where the words
    wrap (`writing.wrap_lines`): a space becomes a line break, tags stay where they are."""
    seen, starts, ends = visible_map(text)
    edits: list[tuple[int, int, str]] = []
    offset = 0
    for line in seen.split("\n"):
        if len(line.strip()) > width:
            chunks = [m for m in re.finditer(r"[^ \t]+", line)]
            wrapped = wrap_lines([m.group() for m in chunks], width)
            at = 0
            for part in wrapped[:-1]:
                at += len(part.split())
                gap_start, gap_end = chunks[at - 1].end(), chunks[at].start()
                for m in range(gap_start, gap_end):
                    i = offset + m
                    edits.append((starts[i], ends[i], "\n" if m == gap_start else ""))
        offset += len(line) + 1
    return _apply(text, edits) if edits else text


__all__ = ["CueText", "Source", "collapsed_map", "encode", "encode_as", "patch_seen", "patch_text", "rolling_written_back", "source_of",
           "split_lines", "unchanged", "visible_map", "wrap_long", "write_back"]


def patch_places(text: str, cues: Sequence[SourceCue], places: Sequence[tuple[int, int, tuple[str, list[int], list[int]]]],
                 transcript: Transcript, runs: Sequence[tuple[int, list[TimedWord]]],
                 escape: Callable[[str], str]) -> str | None:
    """``text`` (a TTML or SAMI file as it came) with each changed cue patched where it stands:
    ``places`` are the cues' (start, end, what is seen there) one for one with ``cues``, ``runs``
    the words to write by cue (``writing.source_runs``). None where a cue's words were all
    deleted, moved to another speaker, or cannot be found in its text (`patch_seen`): the file
    is then written afresh. The file is joined once from its pieces (a piece a changed cue, and
    the text between)."""
    by_cue: dict[int, list[TimedWord]] = {}
    for n, found in runs:
        by_cue.setdefault(n, []).extend(found)
    out: list[str] = []
    at = 0
    for n, (cue, (start, end, seen)) in enumerate(zip(cues, places)):
        run = by_cue.get(n, [])
        ids = tuple(transcript[w.index].id for w in run)
        texts = tuple(w.text for w in run)
        if not run or any(w.speaker != cue.speaker for w in run):
            return None
        if ids == cue.token_ids and texts == cue.words:
            continue
        patched = patch_seen(text[start:end], seen, cue, ids, texts, escape, drop_emptied=False)
        if patched is None:
            return None
        out += [text[at:start], patched]
        at = end
    out.append(text[at:])
    return "".join(out)
