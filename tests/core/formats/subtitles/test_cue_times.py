"""A cue's time beyond any recording is refused in one line that shows the time, also where the
format has no time line to quote (SAMI's <SYNC Start=ms>)."""

import pytest

from editor.core import FormatError
from editor.core.formats import read_any


def test_an_implausible_sami_time_is_shown(tmp_path):
    path = tmp_path / "huge.smi"
    path.write_text("<SAMI><BODY><SYNC Start=99999999999999><P>huge words</BODY></SAMI>", encoding="utf-8")
    with pytest.raises(FormatError, match=r"cue 1 has an implausible time \(\d{12} s\)$"):
        read_any(path)
