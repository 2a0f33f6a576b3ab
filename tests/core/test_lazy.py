"""lazy_exports: a package's names imported from their submodules on first use, and kept."""

import sys
import types

import pytest

from editor.core.lazy import lazy_exports


def test_a_name_loads_its_submodule_on_first_use_and_is_kept(monkeypatch):
    package = types.ModuleType("stet_lazy_probe")
    package.__path__ = []
    sub = types.ModuleType("stet_lazy_probe.part")
    sub.VALUE = object()
    monkeypatch.setitem(sys.modules, "stet_lazy_probe", package)
    loaded = []
    real_import = __import__("importlib").import_module

    def import_module(name):
        loaded.append(name)
        return sub if name == "stet_lazy_probe.part" else real_import(name)

    monkeypatch.setattr("importlib.import_module", import_module)
    package.__getattr__ = lazy_exports("stet_lazy_probe", {"VALUE": "part"})
    assert loaded == []
    assert package.VALUE is sub.VALUE
    assert package.VALUE is sub.VALUE
    assert loaded == ["stet_lazy_probe.part"]  # kept in the package: looked up once
    with pytest.raises(AttributeError, match="has no attribute 'OTHER'"):
        package.OTHER  # noqa: B018


def test_the_real_packages_export_what_they_name():
    import editor.audio
    import editor.media
    import editor.restore

    assert editor.media.open_media.__module__ == "editor.media.decode"
    assert editor.audio.word_at.__module__ == "editor.audio.follow"
    assert "Restorer" in editor.restore.__all__
    with pytest.raises(AttributeError):
        editor.media.nothing_of_that_name  # noqa: B018
