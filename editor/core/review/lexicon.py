"""The user lexicon: case forms the person wrote ("Okafor", "iPad", "NASA"), remembered across
documents and used by every later restoration before the model's own lexicon (pure Python).

Kept as JSON in the user's data folder (``lexicon.json``); a project keeps its own forms in its
metadata (``extra["lexicon"]``), so they travel in the ``.stet`` file. Entries map the lowercase
word to its form; a form must spell the same word (only the case may differ).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from editor.core.errors import UserError
from editor.core.atomic import atomic_write
from editor.core.paths import data_dir

FILE_NAME = "lexicon.json"
MAX_ENTRIES = 100_000


MAX_WORD = 100  # characters of a lexicon entry


def is_entry(word: str, form: str) -> bool:
    """Whether ``word`` -> ``form`` can be a lexicon entry (see `check_forms`)."""
    return (bool(word.strip()) and len(word) <= MAX_WORD and form.lower() == word.lower()
            and not any(ch.isspace() for ch in form))


def check_forms(forms: object, where: str) -> dict[str, str]:
    """A validated copy of a {word: form} mapping; a UserError names the first bad entry."""
    if not isinstance(forms, Mapping):
        raise UserError(f"{where}: the lexicon is not a JSON object of word -> form")
    if len(forms) > MAX_ENTRIES:
        raise UserError(f"{where}: more than {MAX_ENTRIES:,} entries")
    out: dict[str, str] = {}
    for word, form in forms.items():
        if not (isinstance(word, str) and isinstance(form, str)) or not word.strip() or len(word) > MAX_WORD:
            raise UserError(f"{where}: entry {str(word)[:40]!r} is not a word with a form")
        if any(ch.isspace() for ch in form) or any(ch.isspace() for ch in word):
            raise UserError(f"{where}: {form[:40]!r} is not one word (a lexicon entry is one word's form)")
        if form.lower() != word.lower():
            raise UserError(f"{where}: {form[:40]!r} is not a case form of {word[:40]!r}")
        out[word.lower()] = form
    return out


class UserLexicon:
    """Forms by lowercase word; ``save`` writes them atomically."""

    def __init__(self, path: Path | None = None, forms: Mapping[str, str] | None = None) -> None:
        self.path = path if path is not None else data_dir() / FILE_NAME
        self.forms: dict[str, str] = dict(forms or {})
        #: where an entry came from, by word: {"file": the reviewed project, "when": ISO time}
        self.origins: dict[str, dict[str, str]] = {}

    @classmethod
    def load(cls, path: Path | None = None) -> UserLexicon:
        """The lexicon at ``path`` (default: the user's); empty when there is none yet."""
        lex = cls(path)
        try:
            raw = lex.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return lex
        except OSError as err:
            raise UserError(f"{lex.path}: cannot read the lexicon ({err.strerror})") from None
        try:
            data = json.loads(raw)
        except ValueError:
            raise UserError(f"{lex.path}: the lexicon is not valid JSON") from None
        lex.forms = check_forms(data.get("forms") if isinstance(data, dict) else data, str(lex.path))
        origins = data.get("origins") if isinstance(data, dict) else None
        if isinstance(origins, dict):  # (a damaged record of where entries came from is let go, never the forms)
            lex.origins = {w: {k: v for k, v in o.items() if k in ("file", "when") and isinstance(v, str)}
                           for w, o in origins.items() if w in lex.forms and isinstance(o, dict)}
        return lex

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data: dict[str, object] = {"format": "stet-lexicon", "version": 1, "forms": dict(sorted(self.forms.items()))}
        origins = {w: o for w, o in sorted(self.origins.items()) if w in self.forms}
        if origins:
            data["origins"] = origins
        atomic_write(self.path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))

    def learn(self, forms: Mapping[str, str], origin: Mapping[str, str] | None = None) -> list[str]:
        """Add or update forms; ``origin``: where they came from ({"file": ..., "when": ...}; None:
        added by hand, nothing recorded). Returns the words whose entry changed."""
        checked = check_forms(forms, "learned forms")
        changed = [w for w, f in checked.items() if self.forms.get(w) != f]
        for w in changed:
            self.forms[w] = checked[w]
            if origin:
                self.origins[w] = dict(origin)
            else:
                self.origins.pop(w, None)
        return changed

    def origin(self, word: str) -> str:
        """Where ``word``'s entry came from, for a person to read ("talk.stet, 2026-12-06T06:30+00:00"),
        or "" when not recorded (added by hand, or before Stet kept it)."""
        o = self.origins.get(word.lower(), {})
        return ", ".join(x for x in (Path(o["file"]).name if o.get("file") else "", o.get("when", "")) if x)

    def remove(self, words: Iterable[str]) -> int:
        n = 0
        for w in words:
            n += self.forms.pop(w.lower(), None) is not None
            self.origins.pop(w.lower(), None)
        return n

    def clear(self) -> None:
        self.forms.clear()
        self.origins.clear()

    def export(self, path: Path) -> None:
        """Write the forms as a plain list, one `form` per line (a spelling list other tools read)."""
        text = "".join(f"{f}\n" for _w, f in sorted(self.forms.items()))
        atomic_write(path, text.encode("utf-8"))

    def __len__(self) -> int:
        return len(self.forms)


def project_forms(extra: Mapping[str, object], where: str = "project") -> dict[str, str]:
    """The project-local lexicon kept in a transcript's metadata extra (empty when none)."""
    forms = extra.get("lexicon")
    return check_forms(forms, where) if forms is not None else {}


def with_project_forms(extra: Mapping[str, object], forms: Mapping[str, str]) -> dict[str, object] | None:
    """A transcript's metadata ``extra`` with its own lexicon made ``forms`` (the forms its words
    are written in now), or None when it holds them already (so that saving a document whose
    forms did not change changes nothing)."""
    if extra.get("lexicon", {}) == forms or (not forms and "lexicon" not in extra):
        return None
    updated = dict(extra)
    if forms:
        updated["lexicon"] = dict(forms)
    else:
        updated.pop("lexicon", None)
    return updated
