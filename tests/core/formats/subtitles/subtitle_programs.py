"""Small subtitle files shaped as the programs captioners use write them (issue 41's audit):
Subtitle Edit, YouTube (automatic and uploaded captions), Netflix-style WebVTT, Vimeo, Whisper,
Amara, ffmpeg, Windows tools writing UTF-16, and the odd cases a captioner meets (an empty cue, a
cue of only a music note, a song's refrain atop cue after cue, speaker dashes, entities, numbering that starts at 0 or skips, no final
newline, blanks after the times, overlapping cues, invisible characters inside words).

Written from the W3C WebVTT spec, Subtitle Edit's SubRip and what each program is documented to
emit: Whisper's `WriteSRT`/`WriteVTT` (openai-whisper `whisper/utils.py`: no hours in WebVTT
under an hour, `<u>` around the word with `--highlight_words`), YouTube's automatic captions as
yt-dlp saves them (`Kind:`/`Language:` header, `align:start position:0%`, inline
`<00:00:01.520><c> word</c>` times, each line shown twice), ffmpeg's srt muxer (LF, a blank line
after every cue). The words are lower case without marks where a recogniser wrote them, so that
a restoration has something to change; captions typed by people keep theirs.
"""

import codecs

_SE = ("1\r\n00:00:01,000 --> 00:00:03,200\r\n<i>where were you last night</i>\r\n\r\n"
       "2\r\n00:00:03,400 --> 00:00:06,000\r\n{\\an8}i was at the harbour\r\nwaiting for the boat\r\n\r\n"
       "3\r\n00:00:06,200 --> 00:00:08,000\r\n- did it come\r\n- no it never did\r\n\r\n")

_YOUTUBE_AUTO = (
    "WEBVTT\nKind: captions\nLanguage: en\n\n"
    "00:00:00.000 --> 00:00:02.310 align:start position:0%\n \n"
    "so<00:00:00.320><c> today</c><00:00:00.640><c> we're</c><00:00:00.880><c> going</c>"
    "<00:00:01.120><c> to</c><00:00:01.520><c> fix</c>\n\n"
    "00:00:02.310 --> 00:00:02.320 align:start position:0%\nso today we're going to fix\n \n\n"
    "00:00:02.320 --> 00:00:04.950 align:start position:0%\nso today we're going to fix\n"
    "a<00:00:02.640><c> kettle</c><00:00:03.040><c> that</c><00:00:03.360><c> stopped</c>"
    "<00:00:03.700><c> working</c>\n\n"
    "00:00:04.950 --> 00:00:04.960 align:start position:0%\na kettle that stopped working\n \n\n"
    "00:00:04.960 --> 00:00:07.000 align:start position:0%\na kettle that stopped working\n"
    "[Music]\n\n")

_YOUTUBE_MANUAL = ("WEBVTT\nKind: captions\nLanguage: en\n\n"
                   "00:00:00.500 --> 00:00:03.000\nwelcome back to the channel\n\n"
                   "00:00:03.000 --> 00:00:05.500\ntoday we&#39;re making bread\n\n"
                   "00:00:05.500 --> 00:00:08.000\n[Music]\n\n")

_NETFLIX = ("WEBVTT\n\n"
            "1\n00:00:01.001 --> 00:00:03.003 position:50.00%,middle align:middle size:80.00% line:84.67%,end\n"
            "where are you going\n\n"
            "2\n00:00:03.170 --> 00:00:05.672 position:50.00%,middle align:middle size:80.00% line:5.33%,start\n"
            "<c.bg_transparent>[door slams]</c>\n\n"
            "3\n00:00:05.839 --> 00:00:08.008 align:start position:0% line:90%\n"
            "<i>i told you</i> i would be back\n\n")

_VIMEO = ("WEBVTT\n\n"
          "1\n00:00:00.240 --> 00:00:02.970\nhi everyone and thanks for watching\n\n"
          "2\n00:00:02.970 --> 00:00:05.100\nthis is a short tour of the studio\n\n")

_WHISPER_SRT = ("1\n00:00:00,000 --> 00:00:03,240\nand so my fellow americans ask not\n\n"
                "2\n00:00:03,240 --> 00:00:06,500\nwhat your country can do for you\n\n")

_WHISPER_VTT = ("WEBVTT\n\n"
                "00:00.000 --> 00:03.240\nand so my fellow americans ask not\n\n"
                "00:03.240 --> 00:06.500\nwhat your country can do for you\n\n")

_WHISPER_WORDS = ("WEBVTT\n\n"
                  "00:00.000 --> 00:00.400\n<u>and</u> so my friends\n\n"
                  "00:00.400 --> 00:00.800\nand <u>so</u> my friends\n\n"
                  "00:00.800 --> 00:01.100\nand so <u>my</u> friends\n\n"
                  "00:01.100 --> 00:01.700\nand so my <u>friends</u>\n\n")

_AMARA_SRT = ("1\r\n00:00:00,880 --> 00:00:04,070\r\nthe first thing to know about bees\r\n\r\n"
              "2\r\n00:00:04,070 --> 00:00:07,500\r\nis that they dance\r\n\r\n")

_AMARA_VTT = ("WEBVTT\n\n"
              "1\n00:00:00.880 --> 00:00:04.070\nthe first thing to know about bees\n\n"
              "2\n00:00:04.070 --> 00:00:07.500\nis that they dance\n")

_FFMPEG = ("1\n00:00:01,000 --> 00:00:02,500\n{\\an8}<font face=\"Arial\" size=\"20\">top line here</font>\n\n"
           "2\n00:00:02,500 --> 00:00:04,000\nand the bottom one\n\n")

_WINDOWS = ("1\r\n00:00:01,000 --> 00:00:03,000\r\nthis came from a windows tool\r\n\r\n"
            "2\r\n00:00:03,500 --> 00:00:05,000\r\nsaved as unicode\r\n\r\n")

_EMPTY_CUE = ("WEBVTT\n\n"
              "00:00:01.000 --> 00:00:02.000\nhello there\n\n"
              "00:00:02.000 --> 00:00:03.000\n\n"
              "00:00:03.000 --> 00:00:04.000\ngoodbye now\n")

_EMPTY_CUE_SRT = ("1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n"
                  "2\n00:00:02,000 --> 00:00:03,000\n\n"
                  "3\n00:00:03,000 --> 00:00:04,000\ngoodbye now\n\n")

_MUSIC = ("1\n00:00:01,000 --> 00:00:03,000\n♪\n\n"
          "2\n00:00:03,000 --> 00:00:05,000\n♪ oh the river runs ♪\n\n"
          "3\n00:00:05,000 --> 00:00:07,000\nthat was lovely\n\n")

_DASHES = ("1\n00:00:01,000 --> 00:00:03,000\n- hi\n- hello\n\n"
           "2\n00:00:03,000 --> 00:00:05,000\n-how are you\n-fine thanks\n\n")

_ENTITIES = ("WEBVTT\n\n"
             "00:01.000 --> 00:03.000\nfish &amp; chips &lt;3 for tea\n\n"
             "00:03.000 --> 00:05.000\nrock&nbsp;and roll &#x2014; all night\n")

_ENTITIES_SRT = ("1\n00:00:01,000 --> 00:00:03,000\nfish &amp; chips for tea\n\n"
                 "2\n00:00:03,000 --> 00:00:05,000\nrock &amp; roll all night\n\n")

_NUMBERING = ("0\n00:00:01,000 --> 00:00:02,000\nnumbered from nought\n\n"
              "5\n00:00:02,000 --> 00:00:03,000\nthen five\n\n"
              "3\n00:00:03,000 --> 00:00:04,000\nthen three and so on\n\n")

_NO_FINAL_NEWLINE = ("1\n00:00:01,000 --> 00:00:02,000\nthe first one\n\n"
                     "2\n00:00:02,000 --> 00:00:03,000\nthe last one has no end")

_NO_FINAL_NEWLINE_VTT = ("WEBVTT\n\n00:01.000 --> 00:02.000\nthe first one\n\n"
                         "00:02.000 --> 00:03.000\nthe last one has no end")

_TRAILING_BLANKS = ("1  \n00:00:01,000 --> 00:00:02,000   \nblanks after the times\n\n"
                    "2\n00:00:02,000 --> 00:00:03,000\t\nand a tab here \n\n")

_OVERLAP = ("WEBVTT\n\n"
            "00:00:01.000 --> 00:00:04.000 line:10%\nwe talk over each other\n\n"
            "00:00:02.000 --> 00:00:03.000 line:90%\nno you do\n\n"
            "00:00:03.500 --> 00:00:05.000\nall the time\n")

_VOICES = ("WEBVTT\n\n"
           "00:01.000 --> 00:03.000\n<v Ann>are you coming</v>\n\n"
           "00:03.000 --> 00:05.000\n<v Bob>yes i am\n<v Ann>good\n")

_CREDITS = ("1\n00:00:00,500 --> 00:00:02,000\nSubtitles: @handle\n\n"
            "2\n00:00:02,000 --> 00:00:04,000\nso where do we start\n\n"
            "3\n00:00:04,000 --> 00:00:06,000\nTranslation: Ann Smith\n\n")

_INVISIBLE = ("1\n00:00:01,000 --> 00:00:03,000\nthe fi\u200brst zero\u200dwidth word\n\n"
              "2\n00:00:03,000 --> 00:00:05,000\nhe said \u05e9\u05dc\u05d5\u05dd\u200f to me\n\n"
              "3\n00:00:05,000 --> 00:00:07,000\na hyphen\u00adated word and \u2068isolated\u2069 too\n\n")

_KARAOKE = ("WEBVTT\n\n"
            "00:16.500 --> 00:18.500\n<00:16.500>never <00:17.000>drink <00:17.500>liquid <00:18.000>nitrogen\n\n"
            "00:18.500 --> 00:20.500\n<00:18.500>it will <00:19.500>perforate your stomach\n")

_RUBY = ("WEBVTT\n\n"
         "00:01.000 --> 00:03.000 align:start position:0% line:90%\n"
         "the word <ruby>kanji<rt>kan ji</rt></ruby> is read so\n")

_MIXED_ENDS = ("WEBVTT\r\n\r\nNOTE made by hand\n\n"
               "a\r\n00:01.000 --> 00:02.000\r\nfirst line here\n\n"
               "b\n00:02.000 --> 00:03.000\nsecond line here\r\n")

_SPEAKERS_CREDITS = ("1\n00:00:01,000 --> 00:00:03,000\nJOHN: where have you been\n\n"
                     "2\n00:00:03,000 --> 00:00:05,000\nMARY: out in the rain\n\n"
                     "3\n00:00:05,000 --> 00:00:07,000\nJOHN: all night\n\n"
                     "4\n00:00:07,000 --> 00:00:09,000\nSubtitles: @handle\n\n")

_NUMBER_TEXT = ("1\n00:00:01,000 --> 00:00:02,000\n1984\n\n"
                "2\n00:00:02,000 --> 00:00:04,000\nthe year it all began\n\n"
                "3\n00:00:04,000 --> 00:00:05,000\n42\nis the answer\n\n")

_TIGHT = ("1\n00:00:01,000-->00:00:02,000\nno spaces round the arrow\n\n"
          "2\n0:00:02.500 --> 0:00:04.000\none digit hours and dots\n\n")

_ITALIC_LINES = ("1\r\n00:00:01,000 --> 00:00:04,000\r\n<i>she sang of the sea\r\nand the ships on it</i>\r\n\r\n"
                 "2\r\n00:00:04,000 --> 00:00:06,000\r\n{\\i1}an old song{\\i0} he said\r\n\r\n")

_BROADCAST = ("1\n00:00:01,000 --> 00:00:03,000\n>> WHERE ARE YOU GOING\n\n"
              "2\n00:00:03,000 --> 00:00:05,000\n>> TO THE SHOPS\n>> CAN I COME\n\n")

_HIGHLIGHT_LINES = ("WEBVTT\n\n"
                    "00:00.000 --> 00:00.500\n<u>and</u> so my fellow\namericans ask not\n\n"
                    "00:00.500 --> 00:01.000\nand <u>so</u> my fellow\namericans ask not\n\n"
                    "00:01.000 --> 00:01.500\nand so <u>my</u> fellow\namericans ask not\n\n"
                    "00:01.500 --> 00:02.000\nand so my <u>fellow</u>\namericans ask not\n\n"
                    "00:02.000 --> 00:02.500\nand so my fellow\n<u>americans</u> ask not\n\n"
                    "00:02.500 --> 00:03.000\nand so my fellow\namericans <u>ask</u> not\n\n"
                    "00:03.000 --> 00:03.500\nand so my fellow\namericans ask <u>not</u>\n\n")

_ARROW_TEXT = ("1\n00:00:01,000 --> 00:00:03,000\nturn left -> then right\n\n"
               "2\n00:00:03,000 --> 00:00:05,000\nand you are there\n\n")

_LEADING_BLANKS = ("\n\n1\n00:00:01,000 --> 00:00:03,000\n  indented line here\n\n\n\n"
                   "2\n00:00:03,000 --> 00:00:05,000\nafter many blanks\n\n")

_CUE_TIMESTAMPS_IN_TAGS = ("WEBVTT\n\n"
                           "00:00:01.000 --> 00:00:04.000\n<c.yellow>one <00:00:02.000>two</c> <b><00:00:03.000>three four</b>\n")

_REFRAIN = ("1\n00:00:01,000 --> 00:00:03,000\n♪ down by the water ♪\n♪ the lanterns are lit ♪\n\n"
            "2\n00:00:03,000 --> 00:00:05,000\n♪ down by the water ♪\n♪ the boats come in ♪\n\n"
            "3\n00:00:05,000 --> 00:00:07,000\n♪ down by the water ♪\n♪ we wait for you ♪\n\n"
            "4\n00:00:07,000 --> 00:00:09,000\n♪ and the night is long ♪\n\n")

_YOUTUBE_AUTO_TURNS = (
    "WEBVTT\nKind: captions\nLanguage: en\n\n"
    "00:00:00.000 --> 00:00:01.990 align:start position:0%\n \n"
    "&gt;&gt;<00:00:00.160><c> what</c><00:00:00.400><c> do</c><00:00:00.560><c> you</c>"
    "<00:00:00.720><c> think</c><00:00:01.040><c> we&#39;re</c><00:00:01.360><c> doing</c>\n\n"
    "00:00:01.990 --> 00:00:02.000 align:start position:0%\n&gt;&gt; what do you think we&#39;re doing\n \n\n"
    "00:00:02.000 --> 00:00:04.470 align:start position:0%\n&gt;&gt; what do you think we&#39;re doing\n"
    "&gt;&gt;<00:00:02.320><c> i</c><00:00:02.480><c> don&#39;t</c><00:00:02.800><c> know</c>"
    "<00:00:03.120><c> [Laughter]</c>\n\n"
    "00:00:04.470 --> 00:00:04.480 align:start position:0%\n&gt;&gt; i don&#39;t know [Laughter]\n \n\n"
    "00:00:04.480 --> 00:00:06.000 align:start position:0%\n&gt;&gt; i don&#39;t know [Laughter]\n"
    "okay<00:00:04.800><c> let&#39;s</c><00:00:05.100><c> go</c>\n\n")

#: openai-whisper --word_timestamps True --highlight_words True: the segment's words with their
#: leading spaces, a cue without a highlight for a gap between two words
_WHISPER_HIGHLIGHT_REAL = ("WEBVTT\n\n"
                           "00:00.000 --> 00:00.320\n <u>And</u> so my fellow Americans\n\n"
                           "00:00.320 --> 00:00.600\n And <u>so</u> my fellow Americans\n\n"
                           "00:00.600 --> 00:00.900\n And so my fellow Americans\n\n"
                           "00:00.900 --> 00:01.100\n And so <u>my</u> fellow Americans\n\n"
                           "00:01.100 --> 00:01.500\n And so my <u>fellow</u> Americans\n\n"
                           "00:01.500 --> 00:02.200\n And so my fellow <u>Americans</u>\n\n"
                           "00:02.600 --> 00:03.000\n <u>ask</u> not what\n\n"
                           "00:03.000 --> 00:03.400\n ask <u>not</u> what\n\n"
                           "00:03.400 --> 00:03.800\n ask not <u>what</u>\n\n")

_CR_ONLY = ("1\r00:00:01,000 --> 00:00:02,000\rold mac line ends\r\r"
            "2\r00:00:02,000 --> 00:00:03,000\rstill read right\r\r")

#: A film's subtitles from a subtitle site, speakers named, signed at the end without colons
_SITE_CREDITS = ("1\n00:00:01,000 --> 00:00:03,000\nJOHN: where have you been\n\n"
                 "2\n00:00:03,000 --> 00:00:05,000\nMARY: out in the rain\n\n"
                 "3\n00:00:05,000 --> 00:00:07,000\nJOHN: all night\n\n"
                 "4\n00:00:07,000 --> 00:00:09,000\nSync & corrections by n17t01\nwww.example-subs.org\n\n"
                 "5\n00:00:09,000 --> 00:00:11,000\nSubtitles by explosiveskull\n\n")

#: Letters written as character references, as HTML-minded tools write accented text
_REFERENCES = ("WEBVTT\n\n00:01.000 --> 00:03.000\n&eacute;cole is where we went\n\n"
               "00:03.000 --> 00:05.000\n&#xe9;t&eacute; was long and &#201;mile was there\n")

#: name -> the file's bytes
FILES: dict[str, bytes] = {
    "subtitle-edit.srt": codecs.BOM_UTF8 + _SE.encode(),
    "youtube-auto.vtt": _YOUTUBE_AUTO.encode(),
    "youtube-manual.vtt": _YOUTUBE_MANUAL.encode(),
    "netflix.vtt": _NETFLIX.encode(),
    "vimeo.vtt": _VIMEO.encode(),
    "whisper.srt": _WHISPER_SRT.encode(),
    "whisper.vtt": _WHISPER_VTT.encode(),
    "whisper-words.vtt": _WHISPER_WORDS.encode(),
    "amara.srt": _AMARA_SRT.encode(),
    "amara.vtt": _AMARA_VTT.encode(),
    "ffmpeg.srt": _FFMPEG.encode(),
    "windows-utf16.srt": codecs.BOM_UTF16_LE + _WINDOWS.encode("utf-16-le"),
    "empty-cue.vtt": _EMPTY_CUE.encode(),
    "empty-cue.srt": _EMPTY_CUE_SRT.encode(),
    "music-note.srt": _MUSIC.encode(),
    "speaker-dashes.srt": _DASHES.encode(),
    "entities.vtt": _ENTITIES.encode(),
    "entities.srt": _ENTITIES_SRT.encode(),
    "numbering.srt": _NUMBERING.encode(),
    "no-final-newline.srt": _NO_FINAL_NEWLINE.encode(),
    "no-final-newline.vtt": _NO_FINAL_NEWLINE_VTT.encode(),
    "trailing-blanks.srt": _TRAILING_BLANKS.encode(),
    "overlap.vtt": _OVERLAP.encode(),
    "voices.vtt": _VOICES.encode(),
    "credits.srt": _CREDITS.encode(),
    "invisible.srt": _INVISIBLE.encode(),
    "karaoke.vtt": _KARAOKE.encode(),
    "ruby.vtt": _RUBY.encode(),
    "mixed-ends.vtt": _MIXED_ENDS.encode(),
    "speakers-credits.srt": _SPEAKERS_CREDITS.encode(),
    "number-text.srt": _NUMBER_TEXT.encode(),
    "tight-arrows.srt": _TIGHT.encode(),
    "italic-lines.srt": codecs.BOM_UTF8 + _ITALIC_LINES.encode(),
    "broadcast-caps.srt": _BROADCAST.encode(),
    "highlight-lines.vtt": _HIGHLIGHT_LINES.encode(),
    "arrow-text.srt": _ARROW_TEXT.encode(),
    "leading-blanks.srt": _LEADING_BLANKS.encode(),
    "timestamps-in-tags.vtt": _CUE_TIMESTAMPS_IN_TAGS.encode(),
    "lyrics-refrain.srt": _REFRAIN.encode(),
    "youtube-auto-turns.vtt": _YOUTUBE_AUTO_TURNS.encode(),
    "whisper-highlight.vtt": _WHISPER_HIGHLIGHT_REAL.encode(),
    "cr-only.srt": _CR_ONLY.encode(),
    "site-credits.srt": _SITE_CREDITS.encode(),
    "references.vtt": _REFERENCES.encode(),
}
