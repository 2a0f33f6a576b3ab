"""How long the check before an open holds the window: ``check_sound`` (open a recording and
decode its first half second) on 1-hour recordings, and on files that are not sound.

    PYTHONPATH=. python tests/perf/bench_open_check.py [FOLDER]

Makes a 1-hour tone in WAV, FLAC, MP3 and M4A (AAC, its index at the end: the container's worst
case) in FOLDER (a temporary one by default; kept there to run again without encoding), then
times ``check_sound`` on each, five runs, the first with the file just written (in the page
cache: a file on a slow disk or a network share takes longer to open, not to decode).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

from editor.media.decode import MediaError, check_sound
from tests.fakes.media import encode

HOUR = 3600
RATE = 16_000


def tone_wav(path: Path, seconds: int) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        t = np.arange(RATE * 60) / RATE
        minute = (0.3 * 32767 * np.sin(2 * np.pi * 440 * t)).astype("<i2").tobytes()
        for _ in range(seconds // 60):
            w.writeframes(minute)
    return path


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    wav = folder / "hour.wav"
    if not wav.exists():
        tone_wav(wav, HOUR)
    files = [wav]
    for ext, codec in ((".flac", "flac"), (".mp3", "libmp3lame"), (".m4a", "aac")):
        out = folder / f"hour{ext}"
        if not out.exists():
            encode(wav, out, codec, RATE)
        files.append(out)
    (folder / "empty.mp3").write_bytes(b"")
    (folder / "notes.wav").write_text("not sound at all\n" * 50, encoding="utf-8")
    files += [folder / "empty.mp3", folder / "notes.wav"]
    print(f"{'file':<12} {'MB':>7}  check_sound ms (median, worst of 5)")
    for path in files:
        times = []
        for _ in range(5):
            began = time.perf_counter()
            try:
                check_sound(path)
                said = "sound"
            except MediaError as err:
                said = str(err)
            times.append((time.perf_counter() - began) * 1000)
        print(f"{path.name:<12} {path.stat().st_size / 1e6:7.1f}  {statistics.median(times):6.1f} "
              f"{max(times):6.1f}  {said}")


if __name__ == "__main__":
    main()
