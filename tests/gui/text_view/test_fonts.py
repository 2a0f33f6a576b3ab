"""A script no installed font has (Korean words as empty boxes) is said, with a font to install."""

from PySide6.QtGui import QFont, QFontDatabase

from editor.gui.text_view import fonts

KOREAN = "저는 오늘 도서관에 갔어요 그리고 친구를 만났어요"


def no_font_for(*systems):
    def families(system):
        return [] if system in systems else ["Some Font"]
    return families


def test_a_script_no_font_has_is_said_with_a_font_to_install(qapp):
    advice = fonts.font_advice(f"hello {KOREAN}", QFont("DejaVu Sans"), no_font_for(QFontDatabase.WritingSystem.Korean))
    assert advice is not None
    assert advice.startswith("Install a font for Korean, such as Noto Sans CJK KR (fonts-noto-cjk)")
    assert fonts.font_advice(f"hello {KOREAN}", QFont(), no_font_for()) is None  # one is installed
    assert fonts.font_advice("hello café naïve", QFont(), no_font_for(*QFontDatabase.WritingSystem)) is None


def test_japanese_kanji_are_not_said_as_chinese(qapp):
    every = no_font_for(*QFontDatabase.WritingSystem)
    advice = fonts.font_advice("日本語を話します", QFont(), every)
    assert advice is not None and "Japanese" in advice and "Chinese" not in advice


def test_the_real_font_database_agrees(qapp):
    """What this machine has installed, asked the same way Qt picks a fallback font."""
    has_korean = bool(QFontDatabase.families(QFontDatabase.WritingSystem.Korean))
    assert (fonts.font_advice(KOREAN, QFont()) is None) == has_korean


def test_the_window_says_it_above_the_list(window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "_families", no_font_for(QFontDatabase.WritingSystem.Korean))
    src = tmp_path / "korean.txt"
    src.write_text(KOREAN, encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(src)
    notice = window.panel.notice
    assert notice.isVisible() and "Noto Sans CJK KR" in notice.text()
    english = tmp_path / "english.txt"
    english.write_text("so we met at the station", encoding="utf-8")
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(english)
    assert "Noto Sans CJK KR" not in notice.text()


def test_words_heard_in_a_script_no_font_has_are_said_as_they_arrive(window, monkeypatch):
    from editor.core.document.transcript import Transcript

    monkeypatch.setattr(fonts, "_families", no_font_for(QFontDatabase.WritingSystem.Korean))
    doc = Transcript([])
    window.set_transcript(doc, restore=False)
    assert not window.panel.notice.isVisible()
    doc.replace_span(0, 0, KOREAN)
    window.transcription.words_added.emit(len(doc))
    assert "Korean" in window.panel.notice.text()
