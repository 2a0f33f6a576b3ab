"""Text in whatever encoding it came in: byte-order marks, UTF-8, UTF-16/32 without a mark, and
legacy code pages judged by the words they give (see `languages`), else guessed with
charset-normalizer (or named by the user with ``--encoding``)."""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass
from typing import Any

from editor.core.errors import FormatError, UserError
from editor.core.atomic import PathLike
from editor.core.decoding.languages import NAMES, judge_bytes

_BOMS = [  # longest first: the UTF-32 LE BOM begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
]
#: Code pages people's subtitle and text files come in, most common first. Among guesses that are
#: about as plausible (charset-normalizer's "chaos"), the one without letters typical of a wrong
#: decoding wins, then a clearly better language coherence, then the more common code page (on
#: short texts charset-normalizer prefers e.g. Mac Cyrillic to Windows-1251).
_COMMON = ["utf_8", "cp1252", "cp1251", "cp1250", "gb18030", "big5", "cp932", "shift_jis", "cp949",
           "euc_kr", "euc_jp", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "koi8_r",
           "koi8_u", "iso8859_2", "iso8859_5", "iso8859_7", "iso8859_9", "iso8859_15", "latin_1",
           "cp874", "tis_620", "cp866", "cp437", "cp850"]
#: Letters that almost only appear when text is decoded with the wrong Latin code page (French
#: "à ï" read as Windows-1250 give "ŕ ď"; Croatian "č Ć" read as Windows-1252 give "è Æ"...).
_UNLIKELY = frozenset("ŕŔďĎĺĹľĽťŤňŇěĚÈÌÒÙÆæÐðÞþ¹¾³²ºª¤¦¨¸ˇ˘˛˝")
#: Guesses within this much "chaos" (charset-normalizer's measure of mess) of the best are equals.
_CHAOS_BAND = 0.05


def _name(encoding: str) -> str:
    return codecs.lookup(encoding).name


def check_encoding(name: str) -> str:
    """The codec's canonical name, or a UserError that says the encoding is unknown."""
    try:
        return _name(name)
    except LookupError:
        raise UserError(f"unknown text encoding {name!r} (try utf-8, cp1251, cp1250, gb18030, "
                        "latin-1, utf-16...)") from None


def decode_text(data: bytes, path: PathLike, encoding: str | None = None) -> tuple[str, list[str]]:
    """Decode bytes of text; returns the text and warnings about guesses made. With ``encoding``
    the bytes are decoded with it (a BOM of that encoding is dropped) and nothing is guessed."""
    text, warnings, _ = decode_source(data, path, encoding)
    return text, warnings


@dataclass(frozen=True, slots=True)
class Decoding:
    """How a file's bytes became text: the codec (Python's name) and whether a byte-order mark
    came first, so that a file written back can be encoded as it came."""

    codec: str
    bom: bool = False


def decode_source(data: bytes, path: PathLike, encoding: str | None = None
                  ) -> tuple[str, list[str], Decoding]:
    """`decode_text`, and how the text was decoded (see `Decoding`)."""
    if encoding:
        codec = check_encoding(encoding)
        bom = False
        for mark, name in _BOMS:
            if data.startswith(mark) and (_name(name) in (codec, _name(codec.replace("-sig", "")))
                                          or name.startswith(f"{codec}-")):  # "utf-16": LE or BE
                data = data[len(mark):]
                bom = True
                codec = _name(name)
                break
        try:
            return data.decode("utf-8-sig" if codec == "utf-8" else codec), [], Decoding(codec, bom)
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            raise FormatError(path, f"the text is not valid {encoding} (a byte that {encoding} "
                              "does not use)", line=line) from None
    for mark, name in _BOMS:
        if data.startswith(mark):
            try:
                return data[len(mark):].decode(name), [], Decoding(name, True)
            except UnicodeDecodeError as err:
                # a UTF-8 file with its mark and a legacy one joined: each line in its own
                mixed = _decode_mixed(data[len(mark):]) if name == "utf-8" else None
                if mixed is not None:
                    return mixed[0], mixed[1], Decoding("utf-8", True)
                raise FormatError(path, f"the text is not valid {name.upper()} despite its "
                                  "byte-order mark", offset=err.start + len(mark)) from None
    # NUL bytes are valid UTF-8, and UTF-16 text below U+0080 (or U+0800) is NUL bytes and
    # valid UTF-8 bytes: so UTF-16/32 without a mark is looked for first
    wide = _guess_wide(data) if b"\0" in data else None
    if wide:
        try:
            return data.decode(wide), [f"no byte-order mark; read as {wide.upper()}"], Decoding(wide)
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), [], Decoding("utf-8")
    except UnicodeDecodeError:
        pass
    nul = data.find(b"\0")
    if nul >= 0:
        raise FormatError(path, "contains NUL bytes; this is a binary file, not text", offset=nul)
    mixed = _decode_mixed(data)
    if mixed is not None:
        return mixed
    guessed = guess_encoding(data)
    if guessed is None:
        return data.decode("cp1252", errors="replace"), [
            "the text is not UTF-8 and its encoding could not be told; read it as Windows-1252 "
            "(cp1252): check accented letters, or give the encoding (--encoding, or File > Reopen "
            "with Encoding)"], Decoding("cp1252")
    guess, language = guessed
    how = f"a guess from its {NAMES[language]} words" if language else "a guess"
    return data.decode(guess), [
        f"the text is not UTF-8; read it as {describe(guess)} ({how}): if letters look wrong, "
        "give the encoding (--encoding, or File > Reopen with Encoding)"], Decoding(guess)


#: Code pages whose lines `_decode_mixed` reads beside UTF-8 ones: one byte a character, so a
#: line in them is seldom valid UTF-8 by chance (measured: docs/formats.md#encodings). A file in
#: a multi-byte code page (GB18030, Shift JIS...) is read in it whole.
_SINGLE_BYTE = frozenset({"cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256",
                          "cp1257", "cp1258", "koi8_r", "koi8_u", "iso8859_2", "iso8859_5",
                          "iso8859_7", "iso8859_9", "iso8859_15", "latin_1", "cp866", "cp437",
                          "cp850", "cp874", "tis_620", "mac_cyrillic", "mac_roman"})


def _decode_mixed(data: bytes) -> tuple[str, list[str], Decoding] | None:
    """Text that is not UTF-8 as a whole but whose lines are, some in UTF-8 and some in a legacy
    code page (two files joined, a UTF-8 line pasted into an old file): each line that is valid
    UTF-8 and not plain ASCII is read as UTF-8, the others in the code page their bytes give
    (`guess_encoding`, else Windows-1252), and that is said. None when no line with other than
    ASCII is valid UTF-8, or the others' code page takes more than a byte a character.

    Written by hand: charset-normalizer and ftfy decode or repair a text as a whole (ftfy's
    ``fix_text`` mends "CafÃ©" already decoded, and may "mend" text that was right); neither
    reads a file line by line in two encodings. The file is written back as UTF-8 (its lines
    were in two encodings: no one encoding gives its bytes back)."""
    lines = data.splitlines(keepends=True)
    utf8: set[int] = set()
    legacy: list[bytes] = []
    for n, line in enumerate(lines):
        if line.isascii():
            continue
        if utf8_line(line):
            utf8.add(n)
        else:
            legacy.append(line)
    if not utf8 or not legacy:
        return None
    guessed = guess_encoding(b"".join(legacy))
    codec, language = guessed if guessed is not None else ("cp1252", None)
    if codecs.lookup(codec).name not in {codecs.lookup(c).name for c in _SINGLE_BYTE}:
        return None
    text = "".join(line.decode("utf-8") if n in utf8 else line.decode(codec, errors="replace")
                   for n, line in enumerate(lines))
    how = (f"a guess from their {NAMES[language]} words" if language else "a guess" if guessed
           else "their encoding could not be told")
    return text, [
        f"the text mixes encodings: {_lines(len(utf8))} read as UTF-8, {_lines(len(legacy))} as "
        f"{describe(codec)} ({how}); written back, the file is all UTF-8: if letters look wrong, "
        "give the encoding (--encoding, or File > Reopen with Encoding)"], Decoding("utf-8")


def utf8_line(line: bytes) -> bool:
    """Whether a line of a file that mixes encodings is UTF-8: valid as UTF-8, and no word of it
    so read mixes Latin letters with another script's. A legacy line is seldom valid UTF-8, and
    then reads as such a mix: Catalan "[OPCIÓ…]" in Windows-1252 is valid UTF-8 "[OPCIӅ]", Czech
    "VÝŠKA" in Windows-1250 "V݊KA" (tests/perf/bench_mixed_encodings.py)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    for word in text.split():
        # letters, and marks that combine with them outside the diacritics Latin shares (U+0300-036F)
        scripts = {_script(ch) for ch in word if ch.isalpha() or unicodedata.category(ch)[0] == "M"
                   and not 0x300 <= ord(ch) < 0x370}
        if "latin" in scripts and len(scripts) > 1:
            return False
    return True


def _lines(count: int) -> str:
    return f"{count:,} line{'s' if count != 1 else ''}"


def describe(encoding: str) -> str:
    """"Windows-1251 (cp1251)" for a code page's Python name."""
    name = encoding.lower().replace("-", "_")
    if name.startswith("cp125"):
        return f"Windows-{name[2:]} ({name})"
    if name.startswith("iso8859_"):
        return f"ISO-8859-{name[8:]} ({name})"
    return {"gb18030": "GB18030 (Chinese)", "big5": "Big5 (Chinese)", "cp932": "Shift JIS (cp932)",
            "shift_jis": "Shift JIS", "cp949": "EUC-KR (cp949)", "euc_kr": "EUC-KR",
            "koi8_r": "KOI8-R", "mac_cyrillic": "Mac Cyrillic"}.get(name, encoding)


def guess_encoding(data: bytes) -> tuple[str, str | None] | None:
    """The most plausible legacy encoding of ``data`` (which is not UTF-8) and the language it
    was judged by (None when by byte statistics), or None.

    A single-byte code page that makes the text clearly one language wins (`languages.judge_bytes`:
    French in Windows-1252 reads as French words there, and as "élčve" in Windows-1257); for
    other text (Chinese, Japanese, Korean; a line too short to tell) charset-normalizer guesses."""
    verdict = judge_bytes(data)
    if verdict is not None:
        return verdict.encoding, verdict.language
    guess = _statistical_guess(data)
    return (guess, None) if guess else None


def _statistical_guess(data: bytes) -> str | None:
    """charset-normalizer's guess among code pages about as plausible, chosen as said at
    `_COMMON`."""
    from charset_normalizer import from_bytes

    matches = [m for m in from_bytes(data, cp_isolation=None) if m.encoding != "utf_8"]
    if not matches:
        return None
    best = min(m.chaos for m in matches)
    plausible = [m for m in matches if m.chaos <= best + _CHAOS_BAND]

    coherence: dict[str, float] = {}  # by decoded text: code pages that agree are one guess
    for m in plausible:
        coherence[str(m)] = max(coherence.get(str(m), 0.0), m.coherence)

    def rank(match: Any) -> tuple[int, int, int]:  # a charset_normalizer CharsetMatch
        text = str(match)
        unlikely = sum(ch in _UNLIKELY for ch in text) + 3 * _mixed_words(text)
        common = _COMMON.index(match.encoding) if match.encoding in _COMMON else len(_COMMON)
        # language coherence in steps of 0.2: a clearly better one (Greek read as Greek, not as
        # Cyrillic) wins; within a step the more common code page does
        return (unlikely, -int(coherence[text] * 5), common)

    chosen = min(plausible, key=rank)
    text = str(chosen)
    # charset-normalizer reports one of the code pages that decode alike: name the common one
    for name in _COMMON[:_COMMON.index(chosen.encoding) if chosen.encoding in _COMMON else None]:
        try:
            if data.decode(name) == text:
                return name
        except UnicodeDecodeError:
            continue
    return chosen.encoding


def _script(ch: str) -> str:
    o = ord(ch)
    if o < 0x250:
        return "latin"
    if 0x370 <= o < 0x400:
        return "greek"
    if 0x400 <= o < 0x530:
        return "cyrillic"
    return "other"


def _mixed_words(text: str) -> int:
    """Words that mix Latin letters with Cyrillic or Greek ones ("Cafй"), or have a capital right
    after an accented small letter ("żQué"): signs of a wrong code page."""
    count = 0
    for word in text.split():
        # letters, and marks that combine with them outside the diacritics Latin shares (U+0300-036F)
        scripts = {_script(ch) for ch in word if ch.isalpha() or unicodedata.category(ch)[0] == "M"
                   and not 0x300 <= ord(ch) < 0x370}
        if "latin" in scripts and ("cyrillic" in scripts or "greek" in scripts):
            count += 1
        elif any(a.islower() and not a.isascii() and b.isupper() for a, b in zip(word, word[1:])):
            count += 1  # "żQué": Spanish "¿Qué" read as Windows-1250
    return count


def _guess_wide(data: bytes) -> str | None:
    """UTF-32 or UTF-16 without a byte-order mark: NUL bytes at fixed places for Latin text, and
    the bytes decode cleanly."""
    if len(data) >= 8 and len(data) % 4 == 0:
        quads = [data[i::4] for i in range(4)]
        zero = [q.count(0) / len(q) for q in quads]
        if zero[2] > 0.9 and zero[3] > 0.9 and zero[0] < 0.1:
            return "utf-32-le"
        if zero[0] > 0.9 and zero[1] > 0.9 and zero[3] < 0.1:
            return "utf-32-be"
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    if odd.count(0) > 0.25 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.25 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None
