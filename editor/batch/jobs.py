"""What a batch does to each file: restore, transcribe or convert it.

A job is a small picklable object sent to every worker (a process here, an actor on a Ray cluster).
``load()`` runs once per worker (the model is loaded there, once); ``run(source, output, report)``
then runs once per file, reporting the fraction done through ``report`` and writing ``output``
atomically. Each job does for one file exactly what the single-file command does, through the same
functions, so a batch's outputs equal file-by-file runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vosk import Model as VoskModel

    from editor.asr.engine import Progress
    from editor.asr.models import ModelInfo
    from editor.asr.speakers import Speakers, VoiceEncoder
    from editor.core.document.transcript import Transcript
    from editor.core.formats.subtitles import SubtitleLayout
    from editor.core.render import RenderPolicy
    from editor.restore import PassSettings, Restorer

Report = Callable[[float], None]


@dataclass(frozen=True)
class Outcome:
    words: int
    warnings: tuple[str, ...] = ()


class Job:
    kind = ""
    verb = ""  # "restored": says what happened to the files in the summary
    uses_model = True
    encoding: str | None = None  # --encoding: the inputs' text encoding, instead of detecting it
    layout: SubtitleLayout | None = None  # how subtitles written are laid out (--max-line-length...)
    device = "cpu"  # where the job's model runs; a torch model may say "auto" or "cuda"

    def wanted(self, path: Path) -> bool:
        """Whether a file met in a folder or a glob is an input for this job."""
        from editor.core.formats import can_read

        return can_read(path)

    def load(self, threads: int | None = 1) -> None:
        """Once per worker, before the first file: threads settled, the model loaded."""
        from editor.core.threads import configure_threads

        configure_threads(threads=threads)

    def run(self, source: Path, output: Path, report: Report) -> Outcome:
        raise NotImplementedError

    def describe(self) -> str:
        """What the workers hold, for the start-up line (the model's name, once loaded)."""
        return ""


def _read(source: Path, encoding: str | None = None) -> tuple[Transcript, tuple[str, ...]]:
    from editor.core.formats import read_any

    doc = read_any(source, encoding)
    return doc, tuple(doc.metadata.warnings)


class RestoreJob(Job):
    kind, verb = "restore", "restored"

    def __init__(self, model: str | None = None, device: str = "auto", min_confidence: float = 0.0,
                 settings: PassSettings | None = None) -> None:
        from editor.restore import PassSettings

        self.model, self.device, self.min_confidence = model, device, min_confidence
        self.settings = settings if settings is not None else PassSettings()
        self.restorer: Restorer | None = None

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "restorer": None}  # the model is loaded where the job runs

    def load(self, threads: int | None = 1) -> None:
        super().load(threads)
        from editor.restore import restorer_for

        self.restorer = restorer_for(self.model, self.device)

    def describe(self) -> str:
        return self.restorer.name if self.restorer is not None else ""

    def run(self, source: Path, output: Path, report: Report) -> Outcome:
        from editor.core.formats import write_any
        from editor.core.render import RenderPolicy
        from editor.restore import restore_transcript

        assert self.restorer is not None, "load() runs before run()"
        doc, warnings = _read(source, self.encoding)
        notes: list[str] = []
        restore_transcript(self.restorer, doc, self.settings, name=str(source),
                           on_words=lambda done, total: report(done / total), on_note=notes.append)
        written = write_any(doc, output, RenderPolicy(self.min_confidence), self.layout)
        return Outcome(len(doc), (*warnings, *notes, *(f"{output.name}: {w}" for w in written)))


class TranscribeJob(Job):
    kind, verb = "transcribe", "transcribed"

    def __init__(self, model: str | None = None, verbose: bool = False, speakers: Speakers | None = None,
                 *, turn_times: bool = False) -> None:
        self.model, self.verbose = model, verbose
        self.speakers = speakers  # None: no speaker turns
        self.turn_times = turn_times  # a time at each speaker turn (.txt, .md, .docx)
        self.info: ModelInfo | None = None
        self.vosk_model: VoskModel | None = None
        self.encoder: VoiceEncoder | None = None

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "vosk_model": None, "encoder": None}

    def wanted(self, path: Path) -> bool:
        from editor.media.kinds import is_media

        return is_media(path)

    def load(self, threads: int | None = 1) -> None:
        super().load(threads)
        from editor.asr.engine import load_model
        from editor.asr.models import resolve_model

        self.info = resolve_model(self.model)
        self.vosk_model = load_model(self.info.path, verbose=self.verbose)
        if self.speakers is not None and self.speakers != 1:
            from editor.asr.speakers import VoiceEncoder

            self.encoder = VoiceEncoder()

    def describe(self) -> str:
        return self.info.name if self.info is not None else ""

    def run(self, source: Path, output: Path, report: Report) -> Outcome:
        # not `from editor.asr import transcribe`: once the submodule of that name is imported,
        # the package's attribute is the module, not the function
        from editor.asr.transcribe import transcribe
        from editor.core.formats import write_any

        def on_progress(p: Progress) -> None:
            if p.fraction is not None and p.stage != "speakers":
                report(p.fraction)

        # the one transcription pass the window and `stet transcribe` run, folded into a transcript
        doc = transcribe(source, self.info, on_progress=on_progress, verbose=self.verbose,
                         in_worker=False, vosk_model=self.vosk_model, speakers=self.speakers,
                         encoder=self.encoder)
        from editor.core.document.speakers import writer_options
        from editor.core.render import NONE

        written = write_any(doc, output, NONE, self.layout, **writer_options(output, self.turn_times))
        # a recording cut short or damaged is said for each file, as `stet transcribe` says it
        return Outcome(len(doc), (*doc.metadata.warnings, *(f"{output.name}: {w}" for w in written)))


class ConvertJob(Job):
    kind, verb = "convert", "converted"
    uses_model = False

    def __init__(self, policy: RenderPolicy | None = None, renames: dict[str, str] | None = None,
                 commas: str | None = None, *, turn_times: bool = False) -> None:
        self.policy = policy
        self.commas = commas  # a comma style whose unsure commas are left out (None: all kept)
        self.renames = renames or {}  # speakers renamed where a file has them
        self.turn_times = turn_times  # a time at each speaker turn (.txt, .md, .docx)

    def load(self, threads: int | None = 1) -> None:
        pass

    def run(self, source: Path, output: Path, report: Report) -> Outcome:
        from editor.core.document.speakers import writer_options
        from editor.core.formats import write_any
        from editor.core.render import ALL

        doc, warnings = _read(source, self.encoding)
        doc.rename_speakers(self.renames)
        if self.commas is not None:
            from editor.core.commas import leave_out_commas

            leave_out_commas(doc, self.commas)
        written = write_any(doc, output, self.policy if self.policy is not None else ALL, self.layout,
                            **writer_options(output, self.turn_times))
        return Outcome(len(doc), (*warnings, *(f"{output.name}: {w}" for w in written)))
