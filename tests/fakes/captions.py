"""Caption files as other programs write them, shared by the tests that read them."""

from __future__ import annotations

#: YouTube's automatic captions as yt-dlp saves them: each line is timed by its words' start tags,
#: shown again above the next, and a cue of 10 ms moves it up; a cue ends when the next is shown.
YOUTUBE_ROLLING_VTT = ("WEBVTT\nKind: captions\nLanguage: en\n\n"
                       "00:00:01.000 --> 00:00:02.490 align:start position:0%\n \n"
                       "so<00:00:01.400><c> the</c><00:00:01.700><c> library</c>\n\n"
                       "00:00:02.490 --> 00:00:02.500 align:start position:0%\nso the library\n \n\n"
                       "00:00:02.500 --> 00:00:03.990 align:start position:0%\nso the library\n"
                       "opens<00:00:02.900><c> today</c>\n\n"
                       "00:00:03.990 --> 00:00:04.000 align:start position:0%\nopens today\n \n")
