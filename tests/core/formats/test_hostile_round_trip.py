"""Every format Stet writes and reads back keeps the words, in every script of tests/hostile.py:
Chinese and Thai (no spaces between words), Arabic and Persian (right to left, a zero-width
non-joiner inside a word), combining marks, emoji with zero-width joiners, marks standing alone.

An import that ends well but loses or changes words is the worst failure a transcript tool has:
nothing tells the person. Each script is read from each source format, written to each format
Stet can read back, and read again; the words must be the script's words every time.
"""

import json

import pytest

from editor.core import UserError
from editor.core.formats import READERS, WRITERS, read_any, write_any
from editor.core.document.text import split_words, strip_controls
from tests import hostile

#: the formats Stet both writes and reads
BOTH = sorted(set(WRITERS) & set(READERS))
SUBTITLES = {".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp", ".smi", ".sami"}


def sources(text: str, words: list[str]) -> dict[str, str]:
    return {
        "txt": text + "\n", "srt": hostile.srt_text(text), "vtt": hostile.vtt_text(text),
        "vosk.json": json.dumps(hostile.vosk_doc(text), ensure_ascii=False),
        "whisper.json": json.dumps(hostile.whisper_doc(text), ensure_ascii=False),
        "monologues.json": json.dumps(hostile.transcriber_doc(text), ensure_ascii=False),
        "jsonl": "\n".join(json.dumps({"result": [w]}, ensure_ascii=False)
                           for w in hostile.vosk_doc(text)["result"]) + "\n",
        "stet": json.dumps(hostile.stet_doc(words), ensure_ascii=False),
    }


SOURCES = list(sources("a b", ["a", "b"]))
#: Formats with no place for a speaker write the name as text before the words ("A: hello"), and
#: their readers take it for a word: the one source with a speaker (monologues, speaker "A")
#: comes back from them with "a" first, and nothing else changed.
NO_SPEAKER_FIELD = {".txt", ".srt", ".sbv", ".smi", ".sami"}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("script", sorted(hostile.TEXTS))
def test_every_format_keeps_the_words_of_every_script(tmp_path, script, source):
    text, words = hostile.TEXTS[script]
    path = tmp_path / f"in.{source}"
    path.write_text(sources(text, words)[source], encoding="utf-8")
    doc = read_any(path)
    assert doc.words() == words, f"reading {source}"
    failures = []
    for ext in BOTH:
        out = tmp_path / f"out{ext}"
        try:
            write_any(doc, out)
        except UserError as err:  # subtitles of a transcript without times: said, not written
            assert ext in SUBTITLES and doc.tokens[0].start is None, str(err)
            continue
        back = read_any(out)
        expected = (["a"] + words if source == "monologues.json" and ext in NO_SPEAKER_FIELD
                    else words)
        if back.words() != expected:
            failures.append(f"{source} -> {ext}: {back.words()}")
        again = tmp_path / f"again{ext}"
        write_any(back, again)  # and a second time: what was read back writes the same
        if read_any(again).words() != expected:
            failures.append(f"{source} -> {ext} -> {ext}: {read_any(again).words()}")
    assert not failures, "\n".join(failures)


def test_stet_json_keeps_each_word_of_a_script_without_spaces(tmp_path):
    """Whisper's pieces of Japanese join into words; the words of Stet's own .json stay apart."""
    path = tmp_path / "ja.jsonl"
    path.write_text("\n".join(json.dumps({"result": [{"word": w, "start": i, "end": i + 0.5}]},
                                         ensure_ascii=False)
                              for i, w in enumerate(["今日は", "良い", "天気", "です"])),
                    encoding="utf-8")
    write_any(read_any(path), tmp_path / "out.json")
    assert read_any(tmp_path / "out.json").words() == ["今日は", "良い", "天気", "です"]
    whisper = {"language": "ja", "segments": [{"start": 0, "end": 1, "text": "今日は",
                                               "words": [{"word": "今日", "start": 0, "end": 0.5},
                                                         {"word": "は", "start": 0.5, "end": 1}]}]}
    (tmp_path / "w.json").write_text(json.dumps(whisper, ensure_ascii=False), encoding="utf-8")
    assert read_any(tmp_path / "w.json").words() == ["今日は"]


@pytest.mark.parametrize("mark", ["&", "-", "+", "%", "👍", "→"])
def test_a_mark_sent_alone_is_written_apart_from_the_word_before(tmp_path, mark):
    """Vosk or Whisper sending "&" as a word: the text says "rock & roll", which reads back as the
    same words (not "rock&"); a comma sent alone is written against the word ("so,")."""
    result = [{"word": w, "start": i, "end": i + 0.5, "conf": 1.0}
              for i, w in enumerate(["rock", mark, "roll", ",", "so"])]
    (tmp_path / "v.json").write_text(json.dumps({"result": result}, ensure_ascii=False),
                                     encoding="utf-8")
    doc = read_any(tmp_path / "v.json")
    write_any(doc, tmp_path / "out.txt")
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == f"rock {mark} roll, so\n"
    assert read_any(tmp_path / "out.txt").words() == ["rock", "roll", "so"]


def test_a_dash_before_the_first_word_opens_it_as_in_text(tmp_path):
    result = [{"word": w, "start": i, "end": i + 0.5} for i, w in enumerate(["-", "hello", "you"])]
    (tmp_path / "v.json").write_text(json.dumps({"result": result}), encoding="utf-8")
    doc = read_any(tmp_path / "v.json")
    assert doc.words() == ["hello", "you"] and doc[0].surface == "- hello"
    assert doc[0].start == 0 and doc[0].end == 1.5
    assert doc.words() == [p.word for p in split_words("- hello you")]


def test_invisible_characters_that_are_part_of_words_stay():
    """The zero-width non-joiner is spelling in Persian and Indic scripts, the joiner holds emoji
    together; a zero-width space, a direction mark or a soft hyphen stands where its author put
    it, and parts no word (issue 41: "fi\u200brst" was read as "fi" "rst"), so Thai or Khmer
    words that only zero-width spaces part are one word each run between spaces."""
    assert strip_controls("می\u200cخواهم") == "می\u200cخواهم"
    assert strip_controls("👨\u200d👩") == "👨\u200d👩"
    assert [p.word for p in split_words(strip_controls("สวัสดี\u200bครับ"))] == ["สวัสดี\u200bครับ"]
    assert strip_controls("a\u200fb\u00adc\u202e\x07") == "a\u200fb\u00adc\u202e"


def test_words_that_look_like_tags_or_entities_survive_every_subtitle_format(tmp_path):
    """A word "<i>" or "&amp;" written to a .ass came back as italics or "&": SubStation Alpha has
    no escapes, and Stet reads SubRip's tags and entities in it (converters write them there)."""
    words = ["write", "<i>", "and", "&amp;", "</b>", "<font", "color=red>", "a<b", "at&t", "here"]
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"result": [{"word": w, "start": i, "end": i + 0.5, "conf": 1.0}
                                          for i, w in enumerate(words)]}), encoding="utf-8")
    doc = read_any(src)
    failures = []
    for ext in [e for e in BOTH if e != ".txt"]:  # plain text reads character references as characters, and says so
        out = tmp_path / f"out{ext}"
        write_any(doc, out)
        if read_any(out).words() != doc.words():
            failures.append(f"{ext}: {read_any(out).words()}")
    assert not failures, "\n".join(failures)
    # what a player shows: the empty override block after "<" is invisible, the text is as written
    dialogue = " ".join(line for line in (tmp_path / "out.ass").read_text(encoding="utf-8").splitlines()
                        if line.startswith("Dialogue:"))
    assert "<{}i>" in dialogue and "&{}amp;" in dialogue and "a<b" in dialogue and "at&t" in dialogue.lower()


@pytest.mark.parametrize("ext", [".ass", ".ttml"])
def test_braces_written_as_parentheses_are_said(tmp_path, ext):
    """SubStation Alpha never shows text in braces (its styling codes), nor pysubs2's TTML, which is
    written from it: the writer puts parentheses in their place, and now says so."""
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"result": [{"word": w, "start": i, "end": i + 0.5, "conf": 1.0}
                                          for i, w in enumerate(["see", "{note}", "here"])]}), encoding="utf-8")
    warnings = write_any(read_any(src), tmp_path / f"out{ext}")
    assert any("braces written as parentheses" in w for w in warnings), warnings
    assert "(note)" in (tmp_path / f"out{ext}").read_text(encoding="utf-8")
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"result": [{"word": "fine", "start": 0, "end": 0.5, "conf": 1.0}]}), encoding="utf-8")
    assert not any("braces" in w for w in write_any(read_any(plain), tmp_path / f"plain{ext}"))
