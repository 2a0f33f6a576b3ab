"""The catalogue of official Vosk models: a snapshot shipped with Stet, refreshable from the official list.

The official list is a JSON array of objects with ``name``, ``lang``, ``lang_text``, ``size``,
``size_text``, ``md5``, ``url``, ``type``, ``version`` and ``obsolete``; Stet keeps the same fields.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path

from editor.asr.errors import AsrError
from editor.core.paths import resource_path

MODEL_LIST_URL = "https://alphacephei.com/vosk/models/model-list.json"
_MAX_LIST_BYTES = 4 * 1024 * 1024  # the official list is ~30 kB; anything huge is not it


@dataclass(frozen=True)
class CatalogueEntry:
    """One downloadable model."""

    name: str
    language: str
    language_name: str
    size: int | None
    """Bytes of the zip; exact when ``size_exact``, else the models page's rounded figure."""
    size_exact: bool
    md5: str | None
    url: str
    kind: str
    """``small`` (phones, laptops, ~50 MB), ``big`` (servers, GBs) or a variant of those."""
    version: str
    obsolete: bool

    @property
    def size_text(self) -> str:
        return format_size(self.size) if self.size else "size unknown"


@dataclass(frozen=True)
class Catalogue:
    entries: tuple[CatalogueEntry, ...]
    snapshot: bool
    """True for the list shipped with Stet (rounded sizes, no checksums)."""
    taken: str
    """When the list was written (snapshot) or fetched (refresh), ISO date or time."""
    path: str

    def find(self, name: str) -> CatalogueEntry | None:
        for e in self.entries:
            if e.name == name:
                return e
        return None

    def for_language(self, language: str) -> list[CatalogueEntry]:
        language = language.lower()
        return [e for e in self.entries
                if e.language.lower() == language or e.language.lower().split("-")[0] == language]


def format_size(n: int) -> str:
    """``41943040`` → ``40 MB`` (binary units, as the Vosk models page counts)."""
    size, unit = float(n), "B"
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            break
        size /= 1024
    return f"{size:.0f} {unit}" if size >= 10 or unit == "B" else f"{size:.1f} {unit}"


def snapshot_path() -> Path:
    """The catalogue shipped in ``resources/asr``, also inside a frozen build."""
    return resource_path("asr", "model-list.json")


def cache_path() -> Path:
    """Where a refreshed catalogue is kept, beside the downloaded models."""
    from editor.asr.models import models_dir

    return models_dir() / "model-list.json"


def parse_model_list(data: object, *, source: str = "the model list") -> tuple[CatalogueEntry, ...]:
    """Read the official list (a JSON array) or Stet's wrapper of it; raise :class:`AsrError` if
    it is neither. Speaker-identification models (``type == "spk"``) are left out: they transcribe
    nothing."""
    snapshot = isinstance(data, dict) and bool(data.get("snapshot"))
    items = data.get("models") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise AsrError(f"{source} is not a list of Vosk models")
    entries = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise AsrError(f"{source}, entry {i + 1}: not an object")
        name, url = item.get("name"), item.get("url")
        if not isinstance(name, str) or not name or not isinstance(url, str) or not url:
            raise AsrError(f"{source}, entry {i + 1}: a model needs a name and a url")
        if "/" in name or "\\" in name or name.startswith("."):
            raise AsrError(f"{source}, entry {i + 1}: {name!r} is not a usable model name")
        if str(item.get("type", "")) == "spk":
            continue
        size = item.get("size")
        md5 = item.get("md5")
        entries.append(CatalogueEntry(
            name=name,
            language=str(item.get("lang") or "?"),
            language_name=str(item.get("lang_text") or item.get("lang") or "?"),
            size=int(size) if isinstance(size, (int, float)) and size > 0 else None,
            size_exact=not snapshot and isinstance(size, int) and size > 0,
            md5=md5.lower() if isinstance(md5, str) and len(md5) == 32 else None,
            url=url,
            kind=str(item.get("type") or ""),
            version=str(item.get("version") or ""),
            obsolete=str(item.get("obsolete", "false")).lower() == "true",
        ))
    return tuple(entries)


def _read(path: Path) -> Catalogue:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AsrError(f"{path}: the model catalogue cannot be read ({exc})") from None
    entries = parse_model_list(data, source=str(path))
    taken = data.get("taken", "") if isinstance(data, dict) else ""
    snapshot = isinstance(data, dict) and bool(data.get("snapshot"))
    return Catalogue(entries=entries, snapshot=snapshot, taken=str(taken), path=str(path))


def load_catalogue() -> Catalogue:
    """The refreshed catalogue if there is a readable one, else the shipped snapshot."""
    cached = cache_path()
    if cached.is_file():
        try:
            return _read(cached)
        except AsrError:
            pass  # a damaged cache must not hide the snapshot; a refresh rewrites it
    return _read(snapshot_path())


def refresh_catalogue(url: str = MODEL_LIST_URL, *, timeout: float = 15.0) -> Catalogue:
    """Fetch the official list, check it, and keep it for :func:`load_catalogue`."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": "stet"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read(_MAX_LIST_BYTES + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise AsrError(f"cannot fetch the model list from {url}: {reason}") from None
    if len(body) > _MAX_LIST_BYTES:
        raise AsrError(f"{url} sent more than {format_size(_MAX_LIST_BYTES)}; that is not the model list")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise AsrError(f"{url} did not send JSON") from None
    entries = parse_model_list(data, source=url)
    if not entries:
        raise AsrError(f"{url} lists no models")
    taken = datetime.now(UTC).isoformat(timespec="seconds")
    doc = {"format": "stet-vosk-catalogue", "format_version": 1, "snapshot": False,
           "taken": taken, "source": url, "models": data if isinstance(data, list) else data["models"]}
    target = cache_path()
    _write_atomic(target, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    return Catalogue(entries=entries, snapshot=False, taken=taken, path=str(target))


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def language_name(code: str | None) -> str:
    """A speech model's language as people say it (``ko`` → ``Korean``), from the catalogue; the
    code itself when the catalogue does not know it, ``unknown language`` for None."""
    if not code:
        return "unknown language"
    try:
        entries = load_catalogue().entries
    except AsrError:
        entries = ()
    wanted = code.lower()
    for exact in (True, False):
        for e in entries:
            have = e.language.lower()
            if have == wanted or (not exact and have.split("-")[0] == wanted.split("-")[0]):
                if e.language_name and e.language_name != e.language:
                    return e.language_name
    return code
