"""packaging/stet.spec, run with PyInstaller's build steps stood in for: the bundle's data carries
resources/ and the help pages of docs/ where resource_path and docs_path look in a frozen build,
and the licence. (`make dist-test` checks the bundle itself.)"""

import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def spec_datas(monkeypatch, tmp_path) -> list[tuple[str, str]]:
    captured: dict = {}
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = lambda name: []
    hooks.get_package_paths = lambda name: (str(tmp_path), str(tmp_path))
    for name, module in (("PyInstaller", types.ModuleType("PyInstaller")),
                         ("PyInstaller.utils", types.ModuleType("PyInstaller.utils")),
                         ("PyInstaller.utils.hooks", hooks)):
        monkeypatch.setitem(sys.modules, name, module)

    class Analysis:
        def __init__(self, *args, **kwargs):
            captured.update(kwargs)
            self.datas, self.binaries, self.pure, self.scripts = list(kwargs["datas"]), [], [], []

    def step(*args, **kwargs):
        return None

    spec = ROOT / "packaging" / "stet.spec"
    namespace = {"SPECPATH": str(spec.parent), "Analysis": Analysis, "PYZ": step, "EXE": step,
                 "COLLECT": step, "BUNDLE": step, "__file__": str(spec)}
    monkeypatch.setattr(sys, "path", list(sys.path))
    exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), namespace)  # noqa: S102
    return [(str(Path(src).resolve().relative_to(ROOT)), dest) for src, dest in captured["datas"]]


def test_the_bundle_carries_the_help_pages_and_the_licence(monkeypatch, tmp_path):
    datas = spec_datas(monkeypatch, tmp_path)
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert (f"docs/{page.name}", "docs") in datas
    for picture in sorted((ROOT / "docs" / "images").glob("*.png")):
        assert (f"docs/images/{picture.name}", "docs/images") in datas
    assert ("LICENSE", ".") in datas
    assert ("resources/samples/repair-cafe.json", "resources/samples") in datas
    assert not any(src.startswith("resources/screenshots/") for src, _ in datas)
