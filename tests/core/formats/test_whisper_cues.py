"""Whisper's segments kept as cues: each JSON shape Whisper tools write (openai-whisper with and
without word times, whisper.cpp -oj and -ojf, faster-whisper, WhisperX, stable-ts) opens with a
cue per segment, and an edit inside a segment keeps it one cue with its time through srt, vtt
and json."""

import json
from pathlib import Path

import pytest

from editor.core import render
from editor.core.formats import read_any, write_any
from editor.core.formats.subtitles.layout import SubtitleLayout
from editor.core.formats.subtitles.writing import cues_to_write
from editor.core.render import NONE

CORPUS = Path(__file__).parents[2] / "corpus" / "files" / "whisper"


def _words(*items):
    """openai-whisper's word entries: a leading space marks a new word."""
    return [{"word": w, "start": a, "end": b, "probability": p} for w, a, b, p in items]


# openai-whisper's `result` as `whisper --output_format json` writes it (no word times)...
OPENAI = {"text": " So, shall we begin? I think the first thing is the budget.",
          "segments": [
              {"id": 0, "seek": 0, "start": 0.0, "end": 2.4, "text": " So, shall we begin?",
               "tokens": [50364, 407, 11, 4393, 321, 1841, 30, 50484], "temperature": 0.0,
               "avg_logprob": -0.25, "compression_ratio": 1.1, "no_speech_prob": 0.02},
              {"id": 1, "seek": 0, "start": 3.0, "end": 6.2,
               "text": " I think the first thing is the budget.",
               "tokens": [50514, 286, 519, 264, 700, 551, 307, 264, 4706, 13, 50674],
               "temperature": 0.0, "avg_logprob": -0.25, "compression_ratio": 1.1,
               "no_speech_prob": 0.02}],
          "language": "en"}
# ...and with --word_timestamps True: words carry their leading space; "Mc" + "Kenzie" is one word
OPENAI_WORDS = {"text": OPENAI["text"], "language": "en", "segments": [
    {**OPENAI["segments"][0], "words": _words((" So,", 0.0, 0.4, 0.81), (" shall", 0.52, 0.8, 0.97),
                                              (" we", 0.8, 0.96, 0.99), (" begin?", 0.96, 1.5, 0.95))},
    {**OPENAI["segments"][1], "text": " I think Mc Kenzie has the budget.",
     "words": _words((" I", 3.1, 3.2, 0.9), (" think", 3.2, 3.5, 0.9), (" Mc", 3.5, 3.7, 0.6),
                     ("Kenzie", 3.7, 4.1, 0.7), (" has", 4.1, 4.4, 0.9), (" the", 4.4, 4.6, 0.9),
                     (" budget.", 4.6, 5.4, 0.9))}]}
# faster-whisper: Segment and Word named tuples dumped with _asdict(), in a list
FASTER = [
    {"id": 1, "seek": 0, "start": 0.0, "end": 2.4, "text": " So, shall we begin?",
     "tokens": [407, 11, 4393, 321, 1841, 30], "avg_logprob": -0.2, "compression_ratio": 1.1,
     "no_speech_prob": 0.01, "temperature": 0.0,
     "words": [{"start": 0.0, "end": 0.4, "word": " So,", "probability": 0.8},
               {"start": 0.52, "end": 0.8, "word": " shall", "probability": 0.97},
               {"start": 0.8, "end": 0.96, "word": " we", "probability": 0.99},
               {"start": 0.96, "end": 1.5, "word": " begin?", "probability": 0.95}]},
    {"id": 2, "seek": 0, "start": 3.0, "end": 6.2, "text": " I think the first thing is the budget.",
     "tokens": [286, 519], "avg_logprob": -0.2, "compression_ratio": 1.1, "no_speech_prob": 0.01,
     "temperature": 0.0,
     "words": [{"start": 3.1 + 0.3 * k, "end": 3.35 + 0.3 * k, "word": w, "probability": 0.9}
               for k, w in enumerate([" I", " think", " the", " first", " thing", " is", " the",
                                      " budget."])]}]
# WhisperX after alignment and diarization: bare words with "score", a number left untimed,
# speakers on segments and words, and "word_segments" beside
WHISPERX = {"segments": [
    {"start": 0.151, "end": 2.3, "text": " So, shall we begin?", "speaker": "SPEAKER_00",
     "words": [{"word": "So,", "start": 0.151, "end": 0.5, "score": 0.7, "speaker": "SPEAKER_00"},
               {"word": "shall", "start": 0.6, "end": 0.9, "score": 0.8, "speaker": "SPEAKER_00"},
               {"word": "we", "start": 0.95, "end": 1.1, "score": 0.9, "speaker": "SPEAKER_00"},
               {"word": "begin?", "start": 1.2, "end": 2.3, "score": 0.9, "speaker": "SPEAKER_00"}]},
    {"start": 3.0, "end": 6.2, "text": " It costs 2014 pounds.", "speaker": "SPEAKER_01",
     "words": [{"word": "It", "start": 3.0, "end": 3.2, "score": 0.9, "speaker": "SPEAKER_01"},
               {"word": "costs", "start": 3.3, "end": 3.8, "score": 0.9, "speaker": "SPEAKER_01"},
               {"word": "2014"},
               {"word": "pounds.", "start": 5.0, "end": 6.2, "score": 0.8, "speaker": "SPEAKER_01"}]}],
    "word_segments": [{"word": "So,", "start": 0.151, "end": 0.5, "score": 0.7}]}
# stable-ts WhisperResult.save_as_json(): openai-whisper's shape, words with their tokens and ids
STABLE_TS = {"text": " So, shall we begin? I think the first thing is the budget.", "language": "en",
             "time_scale": None, "ori_dia": None, "nonspeech_sections": [], "regroup_history": "da",
             "segments": [
                 {"start": 0.0, "end": 1.5, "text": " So, shall we begin?", "seek": 0.0,
                  "tokens": [407, 11, 4393, 321, 1841, 30], "temperature": 0.0, "avg_logprob": -0.2,
                  "compression_ratio": 1.1, "no_speech_prob": 0.01, "id": 0,
                  "words": [{**w, "tokens": [1], "segment_id": 0, "id": k} for k, w in
                            enumerate(OPENAI_WORDS["segments"][0]["words"])]},
                 {"start": 3.1, "end": 5.4, "text": " I think the first thing is the budget.",
                  "seek": 0.0, "tokens": [286], "temperature": 0.0, "avg_logprob": -0.2,
                  "compression_ratio": 1.1, "no_speech_prob": 0.01, "id": 1,
                  "words": [{"word": w, "start": 3.1 + 0.25 * k, "end": 3.3 + 0.25 * k,
                             "probability": 0.9, "tokens": [1], "segment_id": 1, "id": k}
                            for k, w in enumerate([" I", " think", " the", " first", " thing",
                                                   " is", " the", " budget."])]}]}


def _cpp_token(text, a, b, p=0.9, tid=400):
    return {"text": text, "timestamps": {"from": "", "to": ""}, "offsets": {"from": a, "to": b},
            "id": tid, "p": p, "t_dtw": -1}


def _cpp(full):
    """whisper.cpp's whisper-cli -oj (``full`` False) or -ojf JSON, shaped as cli.cpp's
    output_json writes it (tab-indented, special tokens [_BEG_] and [_TT_n] among the tokens)."""
    segments = [
        (0, 2400, " So, shall we begin?", [(" So", 0, 300), (",", 300, 400), (" shall", 520, 800),
                                            (" we", 800, 960), (" be", 960, 1200), ("gin", 1200, 1400),
                                            ("?", 1400, 1500)]),
        (3000, 6200, " I think the first thing is the budget.",
         [(w, 3100 + 300 * k, 3350 + 300 * k) for k, w in enumerate(
             [" I", " think", " the", " first", " thing", " is", " the", " budget", "."])])]
    transcription = []
    for a, b, text, tokens in segments:
        item = {"timestamps": {"from": "00:00:00,000", "to": "00:00:02,400"},
                "offsets": {"from": a, "to": b}, "text": text}
        if full:
            item["tokens"] = ([_cpp_token("[_BEG_]", a, a, 0.98, 50364)]
                              + [_cpp_token(t, x, y) for t, x, y in tokens]
                              + [_cpp_token(f"[_TT_{b // 20}]", b, b, 0.5, 50364 + b // 20)])
        transcription.append(item)
    return {"systeminfo": "AVX = 1 | AVX2 = 1 | ...", "model": {"type": "base", "multilingual": True,
            "vocab": 51865, "audio": {"ctx": 1500, "state": 512, "head": 8, "layer": 6},
            "text": {"ctx": 448, "state": 512, "head": 8, "layer": 6}, "mels": 80, "ftype": 1},
            "params": {"model": "models/ggml-base.bin", "language": "en", "translate": False},
            "result": {"language": "en"}, "transcription": transcription}


SHAPES = {"openai-whisper": OPENAI, "openai-whisper-words": OPENAI_WORDS, "faster-whisper": FASTER,
          "whisperx": WHISPERX, "stable-ts": STABLE_TS, "whisper.cpp-oj": _cpp(False),
          "whisper.cpp-ojf": _cpp(True)}


def _write(tmp_path, name, data):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data, indent="\t"), encoding="utf-8")
    return path


def _flat(pairs):
    return [t for pair in pairs for t in pair]


def _segment_times(data):
    if isinstance(data, list):
        data = {"segments": data}
    if "transcription" in data:
        return [(t["offsets"]["from"] / 1000, t["offsets"]["to"] / 1000) for t in data["transcription"]]
    return [(s["start"], s["end"]) for s in data["segments"]]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_shape_opens_with_a_cue_per_segment(tmp_path, name):
    data = SHAPES[name]
    doc = read_any(_write(tmp_path, name, data))
    cues = doc.metadata.cues
    assert _flat([(c.start, c.end) for c in cues]) == pytest.approx(_flat(_segment_times(data)))
    assert all(c.format == "whisper" for c in cues)
    # the cues hold every word, in order, and begin where the segments' words begin
    assert [t for c in cues for t in c.token_ids] == [t.id for t in doc.tokens]
    assert " ".join(w for c in cues for w in c.words) == " ".join(render(doc, speakers=False).split())


def test_whisper_cpp_full_json_gives_word_times_and_joins_token_pieces(tmp_path):
    doc = read_any(_write(tmp_path, "cpp", _cpp(True)))
    assert render(doc).split()[:4] == ["So,", "shall", "we", "begin?"]  # " be" + "gin" + "?"
    begin = doc.tokens[3]
    assert (begin.start, begin.end) == pytest.approx((0.96, 1.4))  # "?" is a mark, not a word
    assert doc.tokens[0].confidence == pytest.approx(0.9)
    plain = read_any(_write(tmp_path, "cpp-plain", _cpp(False)))
    assert render(plain) == render(doc)


def test_whisper_cpp_tokens_that_do_not_spell_the_text_are_not_used(tmp_path):
    data = _cpp(True)
    data["transcription"][0]["tokens"][2]["text"] = " Sew"  # e.g. a token list from another run
    doc = read_any(_write(tmp_path, "cpp", data))
    assert render(doc).startswith("So, shall we begin?")
    assert doc.tokens[0].confidence is None  # spread over the segment, as from -oj


def test_whisper_cpp_json_with_characters_split_between_tokens(tmp_path):
    """whisper.cpp issue 1798: a character of three bytes parted between two tokens makes the
    file invalid UTF-8; the words come from the segment's text, and the reading says so."""
    data = _cpp(True)
    data["transcription"][0]["text"] = " 今日は"
    data["transcription"][0]["tokens"] = [_cpp_token("[_BEG_]", 0, 0), _cpp_token("@@A", 0, 500),
                                          _cpp_token("@@B", 500, 900), _cpp_token("は", 900, 1200)]
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8")
    head, tail = "今".encode(), "日".encode()
    raw = raw.replace(b"@@A", head + tail[:2]).replace(b"@@B", tail[2:])
    path = tmp_path / "cpp.json"
    path.write_bytes(raw)
    doc = read_any(path)
    assert render(doc).startswith("今日は")
    assert any("not UTF-8" in w for w in doc.metadata.warnings)
    other = tmp_path / "other.json"
    other.write_bytes(b'{"segments": [{"text": "\xe4\xbb", "start": 0, "end": 1}]}')
    with pytest.raises(Exception, match="not valid UTF-8"):
        read_any(other)


def _edit_inside(doc):
    """Replace a word in the middle of the last segment, as typing over it does."""
    cue = doc.metadata.cues[-1]
    index = next(i for i, t in enumerate(doc.tokens) if t.id == cue.token_ids[len(cue.token_ids) // 2])
    doc.replace_span(index, index + 1, "splendid")
    return doc


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("ext", [".srt", ".vtt", ".json"])
def test_edit_inside_a_segment_keeps_cue_count_and_times(tmp_path, name, ext):
    data = SHAPES[name]
    doc = _edit_inside(read_any(_write(tmp_path, name, data)))
    out = tmp_path / f"out{ext}"
    write_any(doc, out)
    back = read_any(out)
    times = [(c.start, c.end) for c in back.metadata.cues]
    assert _flat(times) == pytest.approx(_flat(_segment_times(data)), abs=0.0011)
    assert "splendid" in render(back)
    assert render(back).split() == render(doc).split()


def test_unchanged_and_edited_segments_through_cues_to_write(tmp_path):
    doc = read_any(_write(tmp_path, "w", OPENAI_WORDS))
    before = cues_to_write(doc, NONE, "x.srt")
    assert [c.lines for c in before] == [("So, shall we begin?",), ("I think McKenzie has the budget.",)]
    # word times inside the segment do not re-time it: the segment's own time is kept
    assert [(c.start, c.end) for c in before] == [(0.0, 2.4), (3.0, 6.2)]
    doc.replace_span(0, 1, "Well, so,")  # words added at a segment's start stay in it
    after = cues_to_write(doc, NONE, "x.srt")
    assert [(c.start, c.end) for c in after] == [(0.0, 2.4), (3.0, 6.2)]
    assert after[0].lines == ("Well, so, shall we begin?",)


def test_a_segment_longer_than_two_lines_is_split_never_given_a_third(tmp_path):
    doc = read_any(CORPUS / "openai-whisper_jfk.json")  # 105 characters in one 11 s segment
    cues = cues_to_write(doc, NONE, "x.srt")
    assert len(cues) == 2 and (cues[0].start, cues[-1].end) == (0.0, 11.0)
    assert cues[0].end <= cues[1].start
    assert all(len(c.lines) <= 2 and all(len(line) <= 42 for line in c.lines) for c in cues)
    assert " ".join(" ".join(c.lines) for c in cues).split() == render(doc).split()
    long = {"segments": [{"start": 0.0, "end": 30.0, "text": " " + " ".join(["word"] * 60)}]}
    cues = cues_to_write(read_any(_write(tmp_path, "long", long)), NONE, "x.srt")
    assert len(cues) > 1 and cues[0].start == 0.0 and cues[-1].end == 30.0
    assert all(len(c.lines) <= 2 for c in cues)


def test_json_export_splits_at_cues_and_keeps_paragraphs(tmp_path):
    doc = read_any(CORPUS / "whisperx_reference.json")
    out = tmp_path / "out.json"
    write_any(doc, out)
    data = json.loads(out.read_text(encoding="utf-8"))
    original = json.loads((CORPUS / "whisperx_reference.json").read_text(encoding="utf-8"))
    assert [(s["start"], s["end"]) for s in data["segments"]] == [
        (s["start"], s["end"]) for s in original["segments"]]
    # two segments in one paragraph: the second says it goes on with it, and reads back so
    doc = read_any(_write(tmp_path, "w", OPENAI_WORDS))
    write_any(doc, out)
    back = read_any(out)
    assert back.paragraph_starts == doc.paragraph_starts
    assert [(c.start, c.end) for c in back.metadata.cues] == [(0.0, 2.4), (3.0, 6.2)]


def test_segments_going_back_in_time_are_not_kept_as_cues(tmp_path):
    data = {"segments": [{"start": 5.0, "end": 6.0, "text": " later"},
                         {"start": 1.0, "end": 2.0, "text": " earlier"}]}
    doc = read_any(_write(tmp_path, "w", data))
    assert doc.metadata.cues == ()
    assert len(cues_to_write(doc, NONE, "x.srt")) >= 1  # cut afresh


def test_cue_boundaries_survive_a_stet_project(tmp_path):
    doc = read_any(_write(tmp_path, "w", OPENAI_WORDS))
    write_any(doc, tmp_path / "p.stet")
    back = read_any(tmp_path / "p.stet")
    assert back.metadata.cues == doc.metadata.cues


# OpenAI's API, response_format="verbose_json" with timestamp_granularities=["word"]: the text
# has the punctuation, the top-level word list the times, no segments
OPENAI_API_WORDS = {"task": "transcribe", "language": "english", "duration": 3.2,
                    "text": "Hello there, my friend. It's late.",
                    "words": [{"word": w, "start": a, "end": b} for w, a, b in [
                        ("Hello", 0.0, 0.4), ("there", 0.5, 0.9), ("my", 1.0, 1.1),
                        ("friend", 1.1, 1.6), ("It's", 2.0, 2.3), ("late", 2.3, 2.9)]]}
# whisper-timestamped: words with "text" and "confidence", no leading spaces
WHISPER_TIMESTAMPED = {"text": " Bonjour! Est-ce que vous allez bien?", "language": "fr", "segments": [
    {"id": 0, "seek": 0, "start": 0.5, "end": 1.5, "text": " Bonjour!", "confidence": 0.51,
     "words": [{"text": "Bonjour!", "start": 0.5, "end": 1.5, "confidence": 0.51}]},
    {"id": 1, "seek": 200, "start": 2.08, "end": 3.9, "text": " Est-ce que vous allez bien?",
     "confidence": 0.9, "words": [{"text": w, "start": 2.08 + 0.3 * k, "end": 2.3 + 0.3 * k,
                                   "confidence": 0.9} for k, w in
                                  enumerate(["Est-ce", "que", "vous", "allez", "bien?"])]}]}


def test_openai_api_word_list_times_the_text_as_written(tmp_path):
    doc = read_any(_write(tmp_path, "api", OPENAI_API_WORDS))
    assert render(doc) == "Hello there, my friend. It's late."
    assert [(t.start, t.end) for t in doc.tokens][3] == (1.1, 1.6)
    assert doc.metadata.cues == () and doc.metadata.warnings == ()
    shifted = {**OPENAI_API_WORDS, "text": "Hello there, my dear friend. It's late."}
    doc = read_any(_write(tmp_path, "api2", shifted))
    assert doc.tokens[3].start is None and doc.tokens[4].start == 1.1
    assert doc.metadata.warnings == ("1 of 7 words of the text have no time in the word list; "
                                     "their times are guessed from their neighbours' where needed",)


def test_whisper_timestamped_and_whisperx_word_segments_alone(tmp_path):
    doc = read_any(_write(tmp_path, "wts", WHISPER_TIMESTAMPED))
    assert render(doc).startswith("Bonjour! Est-ce que vous allez bien?")
    assert doc.tokens[0].confidence == 0.51 and len(doc.metadata.cues) == 2
    words_only = {"word_segments": WHISPERX["segments"][1]["words"]}
    doc = read_any(_write(tmp_path, "wx", words_only))
    assert render(doc) == "It costs 2014 pounds."
    assert doc.tokens[2].start is None and doc.tokens[3].start == 5.0


def test_whisper_cpp_diarized_speakers_are_named(tmp_path):
    data = _cpp(False)
    data["transcription"][0]["speaker"] = "0"
    data["transcription"][1]["speaker"] = "?"  # whisper.cpp could not tell
    doc = read_any(_write(tmp_path, "cpp", data))
    assert doc.tokens[0].speaker == "Speaker 0" and doc.tokens[-1].speaker is None


def test_max_line_length_32_splits_a_segment_at_its_words_times(tmp_path):
    """A captioner's Whisper JSON to .srt at 32 characters: the segment of two sentences became
    one cue of three lines; it is two cues, parted where the words' own times say."""
    words = [(" Welcome", 0.0, 0.3), (" back", 0.3, 0.5), (" to", 0.5, 0.6), (" the", 0.6, 0.7),
             (" channel.", 0.7, 1.61), (" Today", 1.66, 1.9), (" we", 1.9, 2.0), (" are", 2.0, 2.1),
             (" going", 2.1, 2.3), (" to", 2.3, 2.4), (" fix", 2.4, 2.7), (" an", 2.7, 2.8),
             (" old", 2.8, 3.1), (" radio.", 3.1, 3.9)]
    data = {"language": "en", "segments": [{
        "start": 0.0, "end": 3.97, "text": " Welcome back to the channel. Today we are going to fix an old radio.",
        "words": _words(*[(w, a, b, 0.9) for w, a, b in words])}]}
    doc = read_any(_write(tmp_path, "w", data))
    out = tmp_path / "out.srt"
    write_any(doc, out, layout=SubtitleLayout(max_line_length=32))
    cues = read_any(out).metadata.cues
    assert [c.text.split("\n") for c in cues] == [["Welcome back to the channel."],
                                                   ["Today we are going", "to fix an old radio."]]
    assert _flat([(c.start, c.end) for c in cues]) == pytest.approx([0.0, 1.61, 1.66, 3.97], abs=0.0011)
