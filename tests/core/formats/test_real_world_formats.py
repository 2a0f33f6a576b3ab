"""The cases of issue 17: what real programs write is read with its words intact, cues come back
out as they went in, legacy encodings decode, and every whitespace parts words."""

import json

import pytest

from editor.core import FormatError, RenderPolicy, Suggestion, Token, Transcript, UserError, render
from editor.core.formats import read_any, write_any
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT


def read(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return read_any(path)


# -- WebVTT as the spec reads it -----------------------------------------------------------------
@pytest.mark.parametrize("text,words", [
    ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000 position:50.00%,middle align:middle size:80% "
     "line:84.67%\nHello there\n\n00:00:03.000 --> 00:00:04.000 region:x vertical:rl\nagain\n",
     "Hello there again"),
    ("WEBVTT\n\nREGION\nid:x\nwidth:40%\n\nSTYLE\n::cue { color: red }\n\nNOTE a comment\nover "
     "lines\n\n00:01.000 --> 00:02.000\nHello\n\nNOTE between cues\n\n00:03.000 --> 00:04.000\n"
     "world\n", "Hello world"),
    ("WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n   \n00:03.000 --> 00:04.000\nworld\n", "Hello world"),
    ("WEBVTT\n\n00:01:39 --> 00:01:41.04\nno milliseconds\n", "no milliseconds"),
    ("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\n"
     "segment\n", "segment"),
    ("WEBVTT - a title\nKind: captions\nLanguage: en\n\nintro\n00:00:01.000 --> 00:00:02.000\n"
     "with an id\n", "with an id"),
])
def test_webvtt_spec_cases(tmp_path, text, words):
    doc = read(tmp_path, "a.vtt", text)
    assert render(doc) == words


def test_webvtt_times_without_hours_or_milliseconds(tmp_path):
    doc = read(tmp_path, "a.vtt", "WEBVTT\n\n00:01:39 --> 00:01:41.04\nfine\n")
    assert doc[0].start == 99.0 and doc[0].end == pytest.approx(101.04)


def test_webvtt_hls_clock_with_four_digit_hours(tmp_path):
    doc = read(tmp_path, "a.vtt", "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:1000:00:00.000\n\n"
                                  "1000:00:01.000 --> 1000:00:02.500\nlate\n")
    assert render(doc) == "late" and doc[0].start == 1.0 and doc[0].end == 2.5


def test_webvtt_without_cues_is_refused_not_empty(tmp_path):
    with pytest.raises(FormatError, match="no cues found"):
        read(tmp_path, "a.vtt", "WEBVTT\n\nhello there\nno times at all\n")
    with pytest.raises(FormatError, match="must begin with the line WEBVTT"):
        read(tmp_path, "b.vtt", "hello\n")
    with pytest.raises(FormatError, match="no words"):  # a header and a note: said, not opened empty
        read(tmp_path, "c.vtt", "WEBVTT\n\nNOTE nothing yet\n")


def test_subrip_negative_times_and_coordinates(tmp_path):
    doc = read(tmp_path, "a.srt", "1\n-00:00:01,000 --> 00:00:02,000\nHello\n\n2\n"
                                  "00:00:03,000 --> 00:00:04,000  X1:100 X2:200 Y1:10 Y2:20\nworld\n")
    assert render(doc) == "Hello world"
    assert doc[0].start == 0.0 and any("before 0:00" in w for w in doc.metadata.warnings)


def test_errors_are_one_line_without_parser_internals(tmp_path):
    with pytest.raises(FormatError) as info:
        read(tmp_path, "a.vtt", "WEBVTT\n\n00:00:01.000 --> 00:0x:02.000\nbad\n")
    message = str(info.value)
    assert "\n" not in message and "line 3" in message and "Invalid" not in message


# -- text inside cues -----------------------------------------------------------------------------
def test_cue_text_kept_entities_decoded_marks_not_glued(tmp_path):
    doc = read(tmp_path, "a.vtt", "WEBVTT\n\n00:01.000 --> 00:03.000\nx <y and y> z &amp; "
                                  "&lt;tag&gt; it&#39;s&nbsp;fine\n- Hello there.\n- 😀 Hi!\n")
    assert render(doc) == "x <y and y> z & <tag> it's fine - Hello there. - 😀 Hi!"
    assert "it's" in [t.surface for t in doc.tokens] and "fine" in doc.words()
    assert [t.surface for t in doc.tokens][-3:] == ["- Hello", "there", "- 😀 Hi"]
    assert doc.words()[-3:] == ["hello", "there", "hi"]


def test_srt_tags_removed_but_angle_text_kept(tmp_path):
    doc = read(tmp_path, "a.srt", "1\n00:00:01,000 --> 00:00:02,000\n<i>Hi</i> <font color=\"red\">"
                                  "you</font>, 2 < 3 and x <y and y> z {\\an8}\n")
    assert render(doc) == "Hi you, 2 < 3 and x <y and y> z"


# -- YouTube --------------------------------------------------------------------------------------
YOUTUBE_AUTO = """WEBVTT
Kind: captions
Language: en

00:00:00.000 --> 00:00:02.000 align:start position:0%
 
welcome<00:00:00.400><c> back</c><00:00:00.800><c> to</c><00:00:01.200><c> the</c><00:00:01.600><c> show</c>

00:00:02.000 --> 00:00:02.010 align:start position:0%
welcome back to the show
 

00:00:02.010 --> 00:00:04.000 align:start position:0%
welcome back to the show
today<00:00:02.500><c> we</c><00:00:03.000><c> talk</c><00:00:03.500><c> seeds</c>

00:00:04.000 --> 00:00:04.010 align:start position:0%
today we talk seeds
 

00:00:04.010 --> 00:00:06.000 align:start position:0%
today we talk seeds
and<00:00:04.500><c> gardens</c>
"""


def test_youtube_rolling_auto_captions_collapse_to_each_word_once(tmp_path):
    doc = read(tmp_path, "auto.en.vtt", YOUTUBE_AUTO)
    assert render(doc) == "welcome back to the show today we talk seeds and gardens"
    starts = {t.word: t.start for t in doc.tokens}
    assert starts["back"] == pytest.approx(0.4) and starts["seeds"] == pytest.approx(3.5)
    assert starts["gardens"] == pytest.approx(4.5)
    assert all(a.start <= b.start for a, b in zip(doc.tokens, doc.tokens[1:]))


def test_rolling_captions_without_tags_and_karaoke_collapse(tmp_path):
    rolling = "".join(f"{n}\n00:00:0{n},000 --> 00:00:0{n + 1},000\n{a}\n{b}\n\n" for n, (a, b) in
                      enumerate([("one two", "three four"), ("three four", "five six"),
                                 ("five six", "seven eight"), ("seven eight", "nine ten")], 1))
    doc = read(tmp_path, "roll.srt", rolling)
    assert render(doc) == "one two three four five six seven eight nine ten"
    karaoke = "WEBVTT\n\n" + "".join(
        f"00:00:0{n}.000 --> 00:00:0{n + 1}.000\n{text}\n\n"
        for n, text in enumerate(["Hello", "Hello my", "Hello my friend", "Goodbye"], 1))
    assert render(read(tmp_path, "k.vtt", karaoke)) == "Hello my friend Goodbye"


def test_youtube_caption_text_lines_flow_into_running_text(tmp_path):
    lines = ["so today we are going to talk about", "the seed library at the old train",
             "station which started three winters", "ago when a few neighbours began to",
             "swap the seeds they had saved from", "their own gardens and it grew"]
    doc = read(tmp_path, "captions.txt", "\n".join(lines) + "\n")
    assert doc.paragraph_starts == [0]
    utterances = read(tmp_path, "u.txt", "Hello there.\nHow are you today?\nFine, thanks.\n")
    assert utterances.paragraph_starts == [0, 2, 6]
    ragged = ["hey everyone welcome back", "to the channel today i want to",
              "show you how we save seeds", "from the tomatoes in our garden so",
              "first you pick the ripest ones", "and you cut them open like this",
              "then scoop the seeds into a jar"]
    assert read(tmp_path, "yt.txt", "\n".join(ragged)).paragraph_starts == [0]
    vosk = ["so we met in paris it was cold and the river was high that winter",
            "yes", "and then we took the train to lyon where her family lived",
            "i remember the station clock", "it had stopped at a quarter past seven",
            "nobody had fixed it for years"]
    assert len(read(tmp_path, "v.txt", "\n".join(vosk)).paragraph_starts) == 6


# -- new formats ----------------------------------------------------------------------------------
ASS = """[Script Info]
; Script generated by Aegisub 3.2.2
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:03.50,Default,Ann,0,0,0,,{\\i1}Hello{\\i0} there,\\Nfriend.
Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,not spoken
Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100{\\p0}
Dialogue: 0,0:00:06.00,0:00:07.00,Default,Bob,0,0,0,,Hi.
"""


def test_ass_from_aegisub(tmp_path):
    doc = read(tmp_path, "a.ass", ASS)
    assert render(doc) == "Ann: Hello there, friend.\n\nBob: Hi."
    assert doc[0].start == 1.0 and doc[-1].end == 7.0
    write_any(doc, tmp_path / "b.ass")
    assert render(read_any(tmp_path / "b.ass")) == render(doc)


def test_sbv_ttml_dfxp_otr(tmp_path):
    sbv = read(tmp_path, "a.sbv", "0:00:00.599,0:00:04.160\n>> Hello there\nfriend\n\n"
                                  "0:00:04.160,0:00:06.770\nsecond cue\n")
    assert render(sbv) == ">> Hello there friend second cue" and sbv[-1].end == pytest.approx(6.77)
    ttml = read(tmp_path, "a.ttml", '<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml">'
                '<body><div begin="10s"><p begin="0.5s" end="2s">It seems<br/>a paradox,</p>'
                '<p begin="00:00:03.000" dur="1s"><span>does it</span> not?</p></div></body></tt>')
    assert render(ttml) == "It seems a paradox, does it not?"
    assert ttml[0].start == 10.5 and ttml[-1].end == 14.0
    dfxp = read(tmp_path, "a.dfxp", '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.'
                'w3.org/ns/ttml#parameter" ttp:tickRate="10000000" ttp:frameRate="25"><body><div>'
                '<p begin="10000000t" end="25000000t">Broadcast &amp; more</p>'
                '<p begin="00:00:03:00" end="00:00:04:12">frames</p></div></body></tt>')
    assert render(dfxp) == "Broadcast & more frames"
    assert dfxp[0].start == 1.0 and dfxp[-1].end == pytest.approx(4.48)
    otr = read(tmp_path, "a.otr", json.dumps({
        "text": '<p><span class="timestamp" contenteditable="false" data-timestamp="1.5">00:01'
                '</span> Hello &amp; welcome</p><p><span class="timestamp" data-timestamp="9">'
                '00:09</span> second part</p>', "media": "talk.mp3", "media-time": 12.0}))
    assert render(otr) == "Hello & welcome\n\nsecond part"
    assert otr[0].start == 1.5 and otr[1].end <= 9.0


def test_ttml_refuses_entity_declarations(tmp_path):
    with pytest.raises(FormatError, match="DOCTYPE"):
        read(tmp_path, "a.ttml", '<!DOCTYPE tt [<!ENTITY a "aaaa">]><tt/>')


def test_ass_and_ttml_are_written(tmp_path):
    doc = read(tmp_path, "a.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello there\n\n"
                                  "2\n00:00:03,000 --> 00:00:04,000\nagain\n")
    for ext in (".ass", ".ttml", ".sbv", ".vtt"):
        write_any(doc, tmp_path / f"out{ext}")
        back = read_any(tmp_path / f"out{ext}")
        assert render(back) == "Hello there again", ext
        assert back[-1].end == 4.0


# -- the subtitle round trip ---------------------------------------------------------------------
FILM = """1
00:00:01,000 --> 00:00:03,000
<i>Previously on the show...</i>

2
00:00:03,500 --> 00:00:04,000
- Hello.
- Hi.

3
00:00:05,000 --> 00:00:07,250  X1:10 X2:20 Y1:30 Y2:40
JOHN: We have to go
before the river rises.

4
00:00:08,000 --> 00:00:08,400
No.

5
00:00:09,000 --> 00:00:12,000
Then we wait for the
morning light.
"""


def test_round_trip_without_edits_is_byte_identical(tmp_path):
    doc = read(tmp_path, "film.srt", FILM)
    write_any(doc, tmp_path / "out.srt", RenderPolicy())
    assert (tmp_path / "out.srt").read_text() == FILM
    vtt = tmp_path / "film.vtt"
    vtt.write_text("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\nSTYLE\n::cue { "
                   "color: yellow }\n\nintro\n00:00:01.000 --> 00:00:02.000 align:start line:90%\n"
                   "<v Ann>Hello &amp; <i>welcome</i>\n\n00:00:03.000 --> 00:00:04.000\n<c.loud>x "
                   "&lt; y</c>\n")
    write_any(read_any(vtt), tmp_path / "out.vtt")
    assert (tmp_path / "out.vtt").read_text() == vtt.read_text()


def test_round_trip_with_edits_changes_only_touched_cues(tmp_path):
    doc = read(tmp_path, "film.srt", FILM)
    river = doc.words().index("river")
    doc.replace_span(river, river + 1, "flood")
    wait = doc.words().index("wait")
    doc.set_suggestions([Suggestion(doc[wait].id, "punct", ",", {",": 0.9, "": 0.1})])
    write_any(doc, tmp_path / "out.srt", RenderPolicy(0.5))
    blocks = (tmp_path / "out.srt").read_text().split("\n\n")
    original = FILM.split("\n\n")
    assert len(blocks) == len(original) == 5
    assert blocks[0] == original[0] and blocks[1] == original[1] and blocks[3] == original[3]
    assert blocks[2].split("\n")[1:] == ["00:00:05,000 --> 00:00:07,250  X1:10 X2:20 Y1:30 Y2:40",
                                         "JOHN: We have to go", "before the flood rises."]
    assert blocks[4].strip().split("\n")[1:] == ["00:00:09,000 --> 00:00:12,000", "Then we wait, for the",
                                         "morning light."]


def test_changed_short_cue_keeps_its_length_and_new_cues_are_readable(tmp_path):
    doc = read(tmp_path, "film.srt", FILM)
    no = doc.words().index("no")
    doc.replace_span(no, no + 1, "Never.")
    write_any(doc, tmp_path / "out.srt")
    back = read_any(tmp_path / "out.srt")
    cue = next(c for c in back.metadata.cues if "Never." in c.words)
    assert cue.end - cue.start == pytest.approx(0.4)  # as short as the original, not shorter
    plain = Transcript.from_text("one two three four five six seven eight nine")
    timed = Transcript([t.__class__(t.word, t.surface, t.punct, i * 0.05, i * 0.05 + 0.04)
                        for i, t in enumerate(plain.tokens)])
    write_any(timed, tmp_path / "fast.srt")
    cues = read_any(tmp_path / "fast.srt").metadata.cues
    assert all(c.end - c.start >= DEFAULT_LAYOUT.min_cue_seconds - 1e-9 for c in cues)


def test_dialogue_cue_edited_keeps_its_two_lines(tmp_path):
    doc = read(tmp_path, "film.srt", FILM)
    hi = doc.words().index("hi")
    doc.replace_span(hi, hi + 1, "- Hi there.")
    write_any(doc, tmp_path / "out.srt")
    block = (tmp_path / "out.srt").read_text().split("\n\n")[1]
    assert block.split("\n")[2:] == ["- Hello.", "- Hi there."]


def test_italic_cue_edited_stays_italic(tmp_path):
    doc = read(tmp_path, "film.srt", FILM)
    doc.replace_span(0, 1, "Earlier")
    write_any(doc, tmp_path / "out.srt")
    assert (tmp_path / "out.srt").read_text().split("\n\n")[0].endswith(
        "<i>Earlier on the show...</i>")


def test_srt_export_keeps_speakers(tmp_path):
    doc = read(tmp_path, "a.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>Tom &amp; Jerry\n\n"
                                  "00:05.000 --> 00:06.000\n<v Bob>yes\n")
    write_any(doc, tmp_path / "b.srt")
    text = (tmp_path / "b.srt").read_text()
    assert "Ann: Tom & Jerry" in text and "Bob: yes" in text


def test_cues_survive_a_stet_project(tmp_path):
    doc = read(tmp_path, "film.srt", FILM)
    write_any(doc, tmp_path / "p.stet")
    write_any(read_any(tmp_path / "p.stet"), tmp_path / "out.srt")
    assert (tmp_path / "out.srt").read_text() == FILM


# -- encodings and whitespace ---------------------------------------------------------------------
CYRILLIC = "1\n00:00:01,000 --> 00:00:02,000\nПривет, как дела? Это тестовый субтитр.\n\n" \
           "2\n00:00:03,000 --> 00:00:04,000\nСпасибо, всё хорошо.\n"
CROATIAN = "1\n00:00:01,000 --> 00:00:02,000\nDobar dan, kako ste? Čekaj, što se događa?\n\n" \
           "2\n00:00:03,000 --> 00:00:04,000\nŽivjeli! Ćup šećera.\n"
CHINESE = "1\n00:00:01,000 --> 00:00:02,000\n你好，世界。这是一个测试字幕文件。\n\n" \
          "2\n00:00:03,000 --> 00:00:04,000\n谢谢，我很好。\n"


GREEK = "1\n00:00:01,000 --> 00:00:02,000\nΓεια σου κόσμε. Αυτό είναι ένα δοκιμαστικό υπότιτλο.\n"
SPANISH = "1\n00:00:01,000 --> 00:00:02,000\n¿Qué tal? Mañana será otro día, señor. ¡Olé!\n"
JAPANESE = "1\n00:00:01,000 --> 00:00:02,000\nこんにちは、世界。これはテスト用の字幕ファイルです。\n"
TRADITIONAL = "1\n00:00:01,000 --> 00:00:02,000\n你好，世界。這是一個測試字幕檔案。謝謝，我很好。\n"
KOREAN = "1\n00:00:01,000 --> 00:00:02,000\n안녕하세요, 세계. 이것은 테스트 자막 파일입니다.\n"


@pytest.mark.parametrize("text,encoding", [(CYRILLIC, "cp1251"), (CROATIAN, "cp1250"),
                                           (CHINESE, "gb2312"), (GREEK, "cp1253"),
                                           (SPANISH, "cp1252"), (JAPANESE, "shift_jis"),
                                           (TRADITIONAL, "big5"), (KOREAN, "euc-kr")])
def test_legacy_encodings_are_detected(tmp_path, text, encoding):
    doc = read(tmp_path, "a.srt", text, encoding)
    expected = read(tmp_path, "b.srt", text)
    assert render(doc) == render(expected)
    assert any("not UTF-8" in w for w in doc.metadata.warnings)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_without_bom(tmp_path, encoding):
    assert render(read(tmp_path, "a.srt", CYRILLIC, encoding)) == render(read(tmp_path, "b.srt", CYRILLIC))


def test_encoding_named_by_the_user(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes("Ðåøåíèå".encode("cp1252"))  # cp1251 bytes of "Решение"
    assert render(read_any(path, "cp1251")) == "Решение"
    assert read_any(path, "cp1251").metadata.warnings == ()
    with pytest.raises(UserError, match="unknown text encoding"):
        read_any(path, "no-such-encoding")


@pytest.mark.parametrize("space", ["\f", "\v", "\x85", "\u2028", "\u2029", "\u00a0", "\u3000"])
def test_every_whitespace_parts_words(tmp_path, space):
    doc = read(tmp_path, "a.txt", f"end of page{space}next page")
    assert doc.words() == ["end", "of", "page", "next", "page"]


# -- JSON export ------------------------------------------------------------------------------------
def test_json_export_keeps_what_the_user_sees_and_reads_back(tmp_path):
    doc = read(tmp_path, "a.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>so we met in paris\n\n"
                                  "00:05.000 --> 00:06.000\n<v Bob>it was cold\n")
    doc.set_suggestions([Suggestion(doc[4].id, "punct", ".", {".": 0.9, "": 0.1}),
                         Suggestion(doc[4].id, "case", "Paris", {"Paris": 0.9, "paris": 0.1})])
    write_any(doc, tmp_path / "out.json", RenderPolicy(0.0))
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["segments"][0]["text"] == "so we met in Paris."
    assert data["segments"][0]["speaker"] == "Ann"
    # its start was spread over the cue, its end is the cue's (read back so: no pause inside a cue)
    assert data["segments"][0]["words"][-1] == {"word": "Paris.", "start": pytest.approx(1.6, abs=0.2),
                                                "end": 2.0, "spread": "start"}
    back = read_any(tmp_path / "out.json")
    assert render(back) == "Ann: so we met in Paris.\n\nBob: it was cold"
    assert back[4].start == pytest.approx(doc[4].start, abs=1e-3)


def test_whisper_json_in_japanese_keeps_spaces_out(tmp_path):
    data = {"language": "ja", "segments": [{"start": 0.0, "end": 2.0, "text": "こんにちは世界",
                                            "words": [{"word": "こんにちは", "start": 0.0, "end": 1.0},
                                                      {"word": "世界", "start": 1.0, "end": 2.0}]},
                                           {"start": 2.0, "end": 3.0, "text": " Hello world",
                                            "words": [{"word": " Hello", "start": 2.0, "end": 2.5},
                                                      {"word": " world", "start": 2.5, "end": 3.0}]}]}
    doc = read(tmp_path, "ja.json", json.dumps(data, ensure_ascii=False))
    assert render(doc) == "こんにちは世界 Hello world"
    assert doc[0].start == 0.0 and doc[0].end == 2.0


def test_whisper_words_without_a_leading_space_continue_the_word_before(tmp_path):
    words = [(" And", 0.0, 0.37), (" so", 0.37, 0.61), (" that", 1.0, 1.1), ("'s", 1.1, 1.32),
             (" where", 1.36, 1.95), (".", 1.95, 1.95)]
    data = {"segments": [{"start": 0.0, "end": 2.0, "text": " And so that's where.",
                          "words": [{"word": w, "start": a, "end": b, "probability": 0.9}
                                    for w, a, b in words]}]}
    doc = read(tmp_path, "cpp.json", json.dumps(data))
    assert render(doc) == "And so that's where." and doc.words()[2] == "that's"
    assert (doc[2].start, doc[2].end) == (1.0, 1.32)
    bare = {"segments": [{"start": 0.0, "end": 1.0, "text": "Hello world",
                          "words": [{"word": "Hello", "start": 0.0, "end": 0.5},
                                    {"word": "world", "start": 0.5, "end": 1.0}]}]}
    assert read(tmp_path, "x.json", json.dumps(bare)).words() == ["hello", "world"]


def test_whisper_cpp_and_faster_whisper_segment_lists(tmp_path):
    cpp = {"systeminfo": "AVX = 1", "model": {"type": "base"}, "result": {"language": "en"},
           "transcription": [{"timestamps": {"from": "00:00:00,000", "to": "00:00:04,020"},
                              "offsets": {"from": 0, "to": 4020}, "text": " And so that's where"},
                             {"timestamps": {"from": "00:00:04,020", "to": "00:00:06,000"},
                              "offsets": {"from": 4020, "to": 6000}, "text": " it began."}]}
    doc = read(tmp_path, "cpp.json", json.dumps(cpp))
    assert render(doc) == "And so that's where it began."
    assert doc[-1].end == 6.0 and doc.metadata.language == "en"
    segments = [{"id": 0, "seek": 0, "start": 0.0, "end": 2.0, "text": " Hello there.",
                 "tokens": [1, 2], "temperature": 0.0, "avg_logprob": -0.2,
                 "compression_ratio": 1.1, "no_speech_prob": 0.01, "words": None},
                {"id": 1, "seek": 0, "start": 2.5, "end": 4.0, "text": " Bye.", "tokens": [3],
                 "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.1,
                 "no_speech_prob": 0.01, "words": None}]
    doc = read(tmp_path, "fw.json", json.dumps(segments))
    assert render(doc) == "Hello there. Bye." and doc[0].start == 0.0 and doc[-1].end == 4.0


def test_vosk_results_printed_one_after_another(tmp_path):
    # what Vosk's test_simple.py prints: each result pretty-printed, one after another
    first = {"result": [{"conf": 1.0, "end": 1.02, "start": 0.84, "word": "one"},
                        {"conf": 1.0, "end": 1.5, "start": 1.1, "word": "zero"}], "text": "one zero"}
    second = {"result": [{"conf": 0.9, "end": 3.2, "start": 2.9, "word": "nine"}], "text": "nine"}
    text = json.dumps(first, indent=2) + "\n" + json.dumps(second, indent=2) + "\n" + \
        json.dumps({"text": ""}, indent=2) + "\n"
    doc = read(tmp_path, "vosk.json", text)
    assert doc.words() == ["one", "zero", "nine"] and doc[2].start == 2.9


def test_fresh_cues_join_a_short_neighbour(tmp_path):
    words = "Yes. No. Maybe so. We will see about that tomorrow.".split()
    timed = Transcript([Token(w.strip(".").lower(), w.rstrip("."), "." if w.endswith(".") else "",
                              i * 0.3, i * 0.3 + 0.25) for i, w in enumerate(words)])
    write_any(timed, tmp_path / "fast.srt")
    cues = read_any(tmp_path / "fast.srt").metadata.cues
    assert len(cues) < 4 and all(c.end - c.start >= DEFAULT_LAYOUT.min_cue_seconds - 1e-9 for c in cues)


# -- issue 34: cues that are not rolling captions -------------------------------------------------
def test_cues_at_the_same_time_in_regions_are_not_rolling(tmp_path):
    """The same word shown in six regions at once (as the WebVTT spec's region examples place
    cues side by side): six words, not one."""
    vtt = "WEBVTT\n\n" + "".join(f"REGION\nid:r{n}\nwidth:30%\n\n" for n in range(6)) + "".join(
        f"00:00:00.000 --> 00:00:05.000 region:r{n} align:left\nHello\n\n" for n in range(6))
    doc = read(tmp_path, "regions.vtt", vtt)
    assert render(doc) == "Hello Hello Hello Hello Hello Hello"
    assert len(doc.metadata.cues) == 6


def test_cues_in_two_regions_that_talk_in_turn_are_not_rolling(tmp_path):
    vtt = ("WEBVTT\n\nREGION\nid:fred\nwidth:40%\nscroll:up\n\nREGION\nid:bill\nwidth:40%\n"
           "scroll:up\n\n" + "".join(
               f"00:00:0{n}.000 --> 00:00:2{n}.000 region:{who}\n<v {who}>{text}\n\n"
               for n, (who, text) in enumerate([("fred", "Hi"), ("bill", "Hi"), ("fred", "How are you"),
                                                ("bill", "How are you"), ("fred", "Fine thanks"),
                                                ("bill", "Fine thanks")])))
    words = [t.text for t in read(tmp_path, "talk.vtt", vtt).tokens]
    assert " ".join(words) == "Hi Hi How are you How are you Fine thanks Fine thanks"


def test_a_line_held_over_several_cues_is_not_rolling(tmp_path):
    """A cue that only repeats the one before adds nothing: no roll, every cue kept."""
    srt = "".join(f"{n}\n00:00:0{n},000 --> 00:00:0{n},900\nNo!\n\n" for n in range(1, 7))
    doc = read(tmp_path, "held.srt", srt)
    assert render(doc) == "No! No! No! No! No! No!"
    assert not doc.metadata.warnings


@pytest.mark.parametrize("local", ["00:00:00.000", "1088:00:00.000", "2000:00:00.000"])
def test_webvtt_hls_segment_late_in_a_live_stream(tmp_path, local):
    """A live stream runs for weeks: cues at 1088 hours are read (the spec allows any number of
    hours) and come back as they were; SubRip keeps the time too."""
    vtt = (f"WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:181083,LOCAL:{local}\n\n"
           "1088:42:00.500 --> 1088:42:03.000\nstill live\n\n1088:42:03.000 --> 1088:42:05.250\n"
           "after weeks\n")
    doc = read(tmp_path, "seg.vtt", vtt)
    assert render(doc) == "still live after weeks"
    write_any(doc, tmp_path / "out.vtt")
    assert (tmp_path / "out.vtt").read_text() == vtt
    write_any(doc, tmp_path / "out.srt")
    back = read_any(tmp_path / "out.srt")
    assert render(back) == "still live after weeks"
    late = 1088 * 3600 + 42 * 60 + 0.5
    assert back[0].start == pytest.approx(late - (1088 * 3600 if local.startswith("1088") else 0))
    write_any(doc, tmp_path / "seg.stet")
    assert render(read_any(tmp_path / "seg.stet")) == "still live after weeks"


BLANK_AND_EARLY_SRT = (
    "1\n00:00:01,000 --> 00:00:02,000\nHello there\n\n2\n00:00:02,500 --> 00:00:03,000\n\n"
    "3\n00:00:05,000 --> 00:00:06,000\nthird\n\n4\n00:00:03,500 --> 00:00:04,500\nfourth early\n\n"
    "5\n00:00:07,000 --> 00:00:08,000\n")
BLANK_AND_EARLY_VTT = (
    "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there\n\nblank\n00:00:02.500 --> 00:00:03.000\n\n"
    "00:00:05.000 --> 00:00:06.000\nthird\n\n00:00:03.500 --> 00:00:04.500\nfourth early\n\n"
    "00:00:07.000 --> 00:00:08.000\n")


@pytest.mark.parametrize("name,text", [("a.srt", BLANK_AND_EARLY_SRT), ("a.vtt", BLANK_AND_EARLY_VTT)])
def test_blank_cues_and_the_file_s_order_come_back(tmp_path, name, text):
    """A timed blank (a "missing caption") is a cue, and cues out of time order stay in the
    file's order (said once): written back, the file is as it was."""
    doc = read(tmp_path, name, text)
    assert len(doc.metadata.cues) == 5
    assert " ".join(t.text for t in doc.tokens) == "Hello there third fourth early"
    assert any("kept in the file's order" in w for w in doc.metadata.warnings)
    write_any(doc, tmp_path / ("out" + name[1:]))
    assert (tmp_path / ("out" + name[1:])).read_text() == text
    other = ".vtt" if name.endswith(".srt") else ".srt"
    write_any(doc, tmp_path / ("other" + other))
    back = read_any(tmp_path / ("other" + other))
    assert [(c.start, c.end, c.words) for c in back.metadata.cues] == \
        [(c.start, c.end, c.words) for c in doc.metadata.cues]


LONE_MARKS = ["if a<b c is true", "fish & chips", "a < b and c > d", "a<b c>d", "AT&T and R&D",
              "Tom &paragraph here", "x &notin y", "1 << 2", "<3 you", "<not a tag"]


@pytest.mark.parametrize("name", ["a.srt", "a.vtt"])
def test_a_lone_less_than_or_ampersand_is_text(tmp_path, name):
    """"<" and "&" that begin no tag and no character reference are the person's text: every
    word is read as written, and comes back in either format."""
    if name.endswith(".srt"):
        text = "".join(f"{n}\n00:00:{n:02d},000 --> 00:00:{n:02d},900\n{line}\n\n"
                       for n, line in enumerate(LONE_MARKS, 1))
    else:
        text = "WEBVTT\n\n" + "".join(f"00:00:{n:02d}.000 --> 00:00:{n:02d}.900\n{line}\n\n"
                                      for n, line in enumerate(LONE_MARKS, 1))
    doc = read(tmp_path, name, text)
    assert [" ".join(c.words) for c in doc.metadata.cues] == LONE_MARKS
    for ext in (".srt", ".vtt"):
        write_any(doc, tmp_path / f"out{ext}")
        back = read_any(tmp_path / f"out{ext}")
        assert [" ".join(c.words) for c in back.metadata.cues] == LONE_MARKS


def test_webvtt_text_that_looks_like_a_tag_stays_text_in_subrip(tmp_path):
    """"&lt;i&gt;" in WebVTT is the text "<i>": written to SubRip it must not become italics."""
    doc = read(tmp_path, "a.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
                                  "&lt;i&gt;not italic&lt;/i&gt; &amp;amp;\n")
    write_any(doc, tmp_path / "out.srt")
    back = read_any(tmp_path / "out.srt")
    assert back.metadata.cues[0].words == ("<i>not", "italic</i>", "&amp;")
