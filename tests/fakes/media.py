"""Test media made with PyAV (no sox or ffmpeg binary needed): one re-encoder for the tests and the
benchmarks that need a sound in another format."""

from __future__ import annotations

from pathlib import Path

#: The encoder for each extension. PyAV's wheels carry no Vorbis encoder; Opus in Ogg is the
#: common .ogg of today.
CODECS = {".wav": "pcm_s16le", ".flac": "flac", ".ogg": "libopus", ".mp3": "libmp3lame",
          ".m4a": "aac", ".opus": "libopus"}


def encode(src: Path, out: Path, codec: str | None = None, rate: int | None = None) -> Path:
    """Re-encode ``src``'s first sound stream as mono into ``out`` with ``codec`` (None: the one
    ``out``'s extension names) at ``rate`` (None: ``src``'s own; Opus only takes 48 kHz)."""
    import av

    codec = codec or CODECS[out.suffix]
    with av.open(str(src)) as inp, av.open(str(out), "w") as outp:
        in_stream = inp.streams.audio[0]
        rate = rate or (48000 if codec == "libopus" else in_stream.codec_context.sample_rate)
        stream = outp.add_stream(codec, rate=rate)
        stream.layout = "mono"
        resampler = av.AudioResampler(format=stream.format.name if stream.format else "s16",
                                      layout="mono", rate=rate)
        for frame in inp.decode(in_stream):
            frame.pts = None
            for r in resampler.resample(frame):
                for packet in stream.encode(r):
                    outp.mux(packet)
        for r in resampler.resample(None):
            for packet in stream.encode(r):
                outp.mux(packet)
        for packet in stream.encode(None):
            outp.mux(packet)
    return out
