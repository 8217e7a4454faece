"""File > Import Background and View > Background: a picture under the spaces, scaled
by two points and a typed distance, faded, hidden, locked, saved with the track."""

from __future__ import annotations

import pytest
from conftest_helpers import click, drag, scale_background
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

pytestmark = pytest.mark.gui


def picture(tmp_path, width=200, height=100):
    path = tmp_path / "scan.png"
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#88aacc"))
    assert image.save(str(path))
    return path


def menu_action(window, menu_text, text):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == menu_text)
    found = [a for a in menu.actions() if a.text().replace("&", "") == text]
    for sub in (a.menu() for a in menu.actions() if a.menu()):
        found += [a for a in sub.actions() if a.text().replace("&", "") == text]
    return found[0]


def test_import_shows_the_picture_under_the_track_and_undo_takes_it_away(
    window, qtbot, stadium_file, tmp_path
):
    assert window.open_file(stadium_file, ask=False)
    window.prompts.image_answer = str(picture(tmp_path))
    menu_action(window, "&File", "Import Background…").trigger()
    background = window.doc.track.background
    item = window.background.item
    assert background is not None and item.isVisible()
    assert item.zValue() < window.scene.surface.zValue()
    track = window.scene.track_rect()
    assert item.scene_rect().width() == pytest.approx(track.width(), abs=0.01)
    assert background.path == "scan.png"  # beside the track file: relative
    assert menu_action(window, "&View", "Show Background").isChecked()
    window.doc.undo_stack.undo()
    assert window.doc.track.background is None and not item.isVisible()


def test_two_points_and_a_distance_scale_the_picture(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    before = window.doc.track.background.mm_per_pixel
    window.view.set_zoom(1.0)
    window.view.centerOn(100, 0)
    menu_action(window, "&View", "Set Scale from Two Points…").trigger()
    assert window.scene.tool is window.background.picker
    window.prompts.distance_answer = 200.0
    click(qtbot, window, 50, 0)
    click(qtbot, window, 150, 0)
    ((_name, measured),) = window.prompts.titles("distance")[-1:]
    assert measured == pytest.approx(100, abs=1.5)
    after = window.doc.track.background
    assert after.mm_per_pixel == pytest.approx(before * 200 / measured, rel=1e-4)
    assert window.scene.tool is window.tools["select"]  # the tool is given back
    assert window.doc.undo_stack.count() == 2


def test_hide_fade_lock_are_undoable_and_saved_with_the_track(
    make_window, qtbot, stadium_file, tmp_path
):
    window = make_window()
    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    menu_action(window, "&View", "Show Background").trigger()
    assert window.doc.track.background.hidden and not window.background.item.isVisible()
    window.prompts.opacity_answer = 0.3
    menu_action(window, "&View", "Opacity…").trigger()
    assert window.background.item.opacity() == pytest.approx(0.3)
    menu_action(window, "&View", "Lock Background").trigger()
    assert not menu_action(window, "&View", "Set Scale from Two Points…").isEnabled()
    assert window.save()
    text = stadium_file.read_text()
    assert "background:" in text and "hidden: true" in text and "locked: true" in text
    other = make_window()
    assert other.open_file(stadium_file, ask=False)
    assert other.doc.track.background == window.doc.track.background
    assert not other.background.item.isVisible()  # hidden, as saved


def test_what_is_no_picture_is_reported(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    assert not window.background.import_image(str(bad))
    assert window.prompts.titles()[-1][1] == "Cannot import background"
    assert window.doc.track.background is None


def test_the_background_is_never_printed(window, qtbot, stadium_file, tmp_path):
    """An export draws the track, not the canvas: the picture (a flat blue as wide as
    the track) leaves no trace in it."""
    from dataclasses import replace

    from trackside.editor.canvas.render import render

    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    traced, plain = tmp_path / "traced.png", tmp_path / "plain.png"
    track = window.doc.snapshot()
    render(track, traced, dpi=20)
    render(replace(track, background=None), plain, dpi=20)
    a, b = QImage(str(traced)), QImage(str(plain))
    assert a.size() == b.size()
    blue = QColor("#88aacc").rgb()
    pixels = [(x, y) for x in range(0, a.width(), 4) for y in range(0, a.height(), 4)]
    assert not any(a.pixel(x, y) == blue for x, y in pixels)
    differing = sum(a.pixel(x, y) != b.pixel(x, y) for x, y in pixels)
    assert differing <= len(pixels) // 200


def test_a_picture_imported_on_a_new_page_puts_the_start_page_away(window, qtbot, tmp_path):
    assert window.first_run.page.isVisible()
    window.prompts.image_answer = str(picture(tmp_path))
    menu_action(window, "&File", "Import Background…").trigger()
    assert not window.first_run.page.isVisible()
    assert window.background.item.isVisible()


def board_pdf(tmp_path, pages=((200, 100),), name="board.pdf"):
    """A PDF made by Qt: each page (width, height in mm) has a blue top-left quarter."""
    from PySide6.QtCore import QMarginsF, QRectF, QSizeF
    from PySide6.QtGui import QPageSize, QPainter, QPdfWriter

    path = tmp_path / name
    writer = QPdfWriter(str(path))
    writer.setResolution(72)
    writer.setPageMargins(QMarginsF(0, 0, 0, 0))
    painter = None
    for number, (width, height) in enumerate(pages):
        writer.setPageSize(QPageSize(QSizeF(width, height), QPageSize.Unit.Millimeter))
        if painter is None:
            painter = QPainter(writer)
        else:
            writer.newPage()
        points = writer.width(), writer.height()
        colour = "#88aacc" if number == 0 else "#cc3333"
        painter.fillRect(QRectF(0, 0, points[0] / 2, points[1] / 2), QColor(colour))
    painter.end()
    return path


def shown_colour(window, x, y):
    """The colour of the background item's pixmap at scene point (x, y) mm."""
    item = window.background.item
    local = item.mapFromScene(x, y)
    return QColor(item.pixmap().toImage().pixel(round(local.x()), round(local.y())))


def test_a_pdf_page_is_shown_under_the_spaces_at_the_two_point_scale(
    make_window, qtbot, stadium_file, tmp_path
):
    window = make_window()
    assert window.open_file(stadium_file, ask=False)
    window.prompts.image_answer = str(board_pdf(tmp_path))
    menu_action(window, "&File", "Import Background…").trigger()
    background = window.doc.track.background
    item = window.background.item
    assert background.page == 1 and background.path == "board.pdf"
    assert not menu_action(window, "&View", "PDF Page…").isEnabled()  # one page only
    assert not window.prompts.titles("pdf_page")  # one page: nothing to ask
    assert item.isVisible() and item.zValue() < window.scene.surface.zValue()
    track = window.scene.track_rect()
    assert item.scene_rect().width() == pytest.approx(track.width(), rel=0.01)
    # Two points 100 mm apart on the picture are 250 mm apart on the board.
    scale_background(qtbot, window, 250.0)
    ((_name, measured),) = window.prompts.titles("distance")[-1:]
    factor = 250.0 / measured
    assert item.scene_rect().width() == pytest.approx(track.width() * factor, rel=0.01)
    rect = item.scene_rect()
    left, top = rect.left(), rect.top()
    assert shown_colour(window, left + rect.width() / 4, top + rect.height() / 4) == QColor(
        "#88aacc"
    )
    assert shown_colour(window, left + rect.width() * 0.75, top + rect.height() / 4) == QColor(
        "white"
    )
    # Saved with the page; reopened, the page is rendered again at the same place.
    assert window.save()
    assert "page: 1" in stadium_file.read_text()
    other = make_window()
    assert other.open_file(stadium_file, ask=False)
    assert other.doc.track.background == window.doc.track.background
    assert other.background.item.scene_rect() == item.scene_rect()


def test_the_page_of_a_pdf_of_several_is_asked_for(window, qtbot, stadium_file, tmp_path):
    assert window.open_file(stadium_file, ask=False)
    path = board_pdf(tmp_path, pages=((200, 100), (100, 300), (210, 297)))
    window.prompts.page_answer = None
    assert not window.background.import_image(str(path))
    assert window.doc.track.background is None  # cancelled
    ((_kind, name, pages),) = window.prompts.titles("pdf_page")
    assert name == "board.pdf" and len(pages) == 3 and "100 x 300 mm" in pages[1]
    window.prompts.page_answer = 2
    assert window.background.import_image(str(path))
    assert window.doc.track.background.page == 2
    rect = window.background.item.scene_rect()
    assert rect.height() / rect.width() == pytest.approx(3.0, rel=0.01)
    assert shown_colour(window, rect.left() + 5, rect.top() + 5) == QColor("#cc3333")
    # Another page later: same place and scale, one undo step.
    choose_page = menu_action(window, "&View", "PDF Page…")
    assert choose_page.isEnabled()
    before = window.doc.track.background
    window.prompts.page_answer = 3
    choose_page.trigger()
    after = window.doc.track.background
    assert after.page == 3 and (after.at, after.mm_per_pixel) == (before.at, before.mm_per_pixel)
    rect = window.background.item.scene_rect()
    assert rect.height() / rect.width() == pytest.approx(297 / 210, rel=0.01)
    window.doc.undo_stack.undo()
    assert window.doc.track.background.page == 2


def test_a_pdf_page_is_rendered_sharp_but_bounded_in_memory(window, qtbot, tmp_path):
    """About 0.1 mm a pixel at the scale set; a page scaled to many metres is rendered
    at most 6000 pixels on its long side."""
    from dataclasses import replace

    from trackside.editor.document.commands import SetBackground

    window.background.import_image(str(board_pdf(tmp_path, pages=((841, 594),))))
    item = window.background.item
    background = window.doc.track.background

    def scale_to(mm_per_point):
        window.doc.undo_stack.push(
            SetBackground(window.doc, replace(background, mm_per_pixel=mm_per_point), "Scale")
        )

    scale_to(0.1)
    assert item.scene_rect().width() / item.pixmap().width() == pytest.approx(0.1, rel=0.01)
    scale_to(0.2)
    assert item.scene_rect().width() / item.pixmap().width() == pytest.approx(0.1, rel=0.01)
    scale_to(20.0)
    pixmap = item.pixmap()
    assert 5990 <= max(pixmap.width(), pixmap.height()) <= 6000
    assert window.background.item.scene_rect().width() == pytest.approx(
        20.0 * 841 / 25.4 * 72, rel=0.01
    )


def encrypted_pdf(path):
    """A one-page PDF protected by a password nobody knows (written by hand)."""
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>",
        b"<</Filter/Standard/V 1/R 2/O<" + b"11" * 32 + b">/U<" + b"22" * 32 + b">/P -4>>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 5\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    file_id = b"<" + b"ab" * 16 + b">"
    out += b"trailer\n<</Size 5/Root 1 0 R/Encrypt 4 0 R/ID[%s%s]>>\n" % (file_id, file_id)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))
    return path


def empty_pdf(path):
    """A PDF without a page (PDFium writes one)."""
    import pypdfium2 as pdfium

    pdfium.PdfDocument.new().save(str(path))
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda tmp: tmp / "gone.pdf", "gone.pdf is not there"),
        (lambda tmp: tmp / "broken.pdf", "broken.pdf is damaged or is no PDF"),
        (lambda tmp: encrypted_pdf(tmp / "locked.pdf"), "locked.pdf is protected by a password"),
        (lambda tmp: empty_pdf(tmp / "empty.pdf"), "empty.pdf has no pages"),
    ],
)
def test_a_pdf_that_cannot_be_shown_is_reported_with_what_to_do(
    window, qtbot, stadium_file, tmp_path, make, says
):
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really\n")
    assert window.open_file(stadium_file, ask=False)
    assert not window.background.import_image(str(make(tmp_path)))
    ((_kind, title, text, fixes),) = window.prompts.titles()
    assert title == "Cannot import background" and says in text
    assert fixes and fixes[0].endswith(".")
    assert window.doc.track.background is None


def test_a_pdf_gone_since_the_save_is_named_in_the_status_bar(
    make_window, qtbot, stadium_file, tmp_path
):
    window = make_window()
    assert window.open_file(stadium_file, ask=False)
    pdf = board_pdf(tmp_path)
    window.background.import_image(str(pdf))
    assert window.save()
    pdf.rename(tmp_path / "moved.pdf")
    other = make_window()
    assert other.open_file(stadium_file, ask=False)
    assert not other.background.item.isVisible()
    assert "board.pdf is not there" in other.statusBar().currentMessage()


def test_dragging_the_background_moves_it_one_undo_step_a_drag(
    make_window, qtbot, stadium_file, tmp_path
):
    window = make_window()
    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    window.view.set_zoom(1.0)
    window.view.centerOn(100, 0)
    start = window.doc.track.background.at
    item = window.background.item
    before_rect = item.scene_rect()
    move = menu_action(window, "&View", "Move Background")
    window.view.setFocus()
    qtbot.waitUntil(lambda: window.view.hasFocus(), timeout=2000)
    qtbot.keyClick(window.view, Qt.Key.Key_B, Qt.KeyboardModifier.ShiftModifier)
    assert window.scene.tool is window.background.mover and move.isChecked()
    steps = window.doc.undo_stack.count()
    drag(window, (50, 0), (80, 20))
    drag(window, (80, 20), (70, 30))
    assert window.doc.undo_stack.count() == steps + 2
    assert window.doc.undo_stack.undoText() == "Move background"
    at = window.doc.track.background.at
    assert at[0] - start[0] == pytest.approx(20, abs=1.5)
    assert at[1] - start[1] == pytest.approx(30, abs=1.5)
    assert item.scene_rect().topLeft().x() == pytest.approx(at[0])
    assert window.doc.track.spaces == window.doc.snapshot().spaces  # only the picture moved
    window.doc.undo_stack.undo()
    assert window.doc.track.background.at[1] - start[1] == pytest.approx(20, abs=1.5)
    window.doc.undo_stack.undo()
    assert window.doc.track.background.at == start
    assert item.scene_rect() == before_rect
    window.doc.undo_stack.redo()
    # Esc ends moving: the tool before comes back.
    qtbot.keyClick(window.view.viewport(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.scene.tool is window.tools["select"])
    assert not move.isChecked()
    assert window.save()
    other = make_window()
    assert other.open_file(stadium_file, ask=False)
    assert other.doc.track.background.at == window.doc.track.background.at


def test_esc_in_a_drag_puts_the_picture_back_and_a_locked_one_is_not_moved(
    window, qtbot, stadium_file, tmp_path
):
    from conftest_helpers import view_point
    from PySide6.QtTest import QTest

    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    window.view.set_zoom(1.0)
    window.view.centerOn(100, 0)
    item = window.background.item
    start = item.pos()
    window.background.start_moving()
    viewport = window.view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=view_point(window, 50, 0))
    QTest.mouseMove(viewport, view_point(window, 90, 10))
    assert item.pos() != start
    qtbot.keyClick(viewport, Qt.Key.Key_Escape)
    assert item.pos() == start
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=view_point(window, 90, 10))
    assert window.doc.undo_stack.count() == 1  # the import only
    qtbot.wait(20)
    assert window.scene.tool is window.background.mover  # the first Esc ended the drag only
    window.set_tool("lanes")  # another tool ends moving, and stays
    qtbot.wait(20)
    assert window.scene.tool is window.tools["lanes"]
    assert not menu_action(window, "&View", "Move Background").isChecked()
    window.background.start_moving()
    menu_action(window, "&View", "Lock Background").trigger()
    assert window.scene.tool is window.tools["lanes"]  # locked: moving ends, lanes come back
    assert not menu_action(window, "&View", "Move Background").isEnabled()
    window.background.start_moving()
    assert window.scene.tool is window.tools["lanes"]
    menu_action(window, "&View", "Lock Background").trigger()
    menu_action(window, "&View", "Show Background").trigger()  # hidden: nothing to drag
    assert not menu_action(window, "&View", "Move Background").isEnabled()


def test_move_background_is_listed_with_its_key(window):
    from trackside.editor.panels.shortcuts import ShortcutsDialog

    entries = dict(ShortcutsDialog(window.menuBar(), window).entries())
    action = window.background.act_move
    assert entries["Background > Move Background"] == action.shortcut().toString() == "Shift+B"
    assert action.shortcut().toString() in action.toolTip()


def test_a_saved_page_the_pdf_no_longer_has_is_named_with_what_to_do(
    window, qtbot, stadium_file, tmp_path
):
    from trackside.engine.track.model import Background, load_track, save_track

    board_pdf(tmp_path, pages=((200, 100), (100, 300)))
    track = load_track(stadium_file)
    track.background = Background("board.pdf", (0, 0), 0.35, page=5)
    save_track(track, stadium_file)
    assert window.open_file(stadium_file, ask=False)
    assert not window.background.item.isVisible()
    message = window.statusBar().currentMessage()
    assert "board.pdf has 2 pages; page 5 is not there" in message and "PDF Page" in message
    window.prompts.page_answer = 2
    menu_action(window, "&View", "PDF Page…").trigger()
    assert window.background.item.isVisible()


def test_mirroring_or_turning_the_whole_circuit_takes_the_picture_along(
    window, qtbot, stadium_file, tmp_path
):
    """The picture stays under what was traced on it, in the same undo step; a
    transform of a few spaces leaves it where it is."""
    from trackside.engine.track.model import load_track

    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    item = window.background.item
    pixels = [(0, 0), (200, 0), (0, 100), (150, 60)]
    before = [item.mapToScene(u, v) for u, v in pixels]
    space = window.doc.track.spaces[0].corners[0]
    steps = window.doc.undo_stack.count()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)  # mirror
    assert window.doc.undo_stack.count() == steps + 1
    assert "background picture" in window.statusBar().currentMessage()
    mirrored_space = window.doc.track.spaces[0].corners[0]
    centre_x2 = space[0] + mirrored_space[0]  # x -> centre_x2 - x, y unchanged
    after = [item.mapToScene(u, v) for u, v in pixels]
    for old, new in zip(before, after, strict=True):
        assert new.x() == pytest.approx(centre_x2 - old.x(), abs=0.01)
        assert new.y() == pytest.approx(old.y(), abs=0.01)
    window.transforms.rotate(90)
    assert window.doc.track.background.turn == 90 and window.doc.track.background.mirrored
    assert window.save()
    saved = load_track(stadium_file).background
    assert saved.turn == 90 and saved.mirrored
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    assert [item.mapToScene(u, v) for u, v in pixels] == before
    window.scene.select_indices([0])
    window.transforms.rotate(90)  # a few spaces only: the picture stays
    assert [item.mapToScene(u, v) for u, v in pixels] == before


def test_a_locked_picture_stays_when_the_whole_circuit_turns_and_the_status_says_so(
    window, qtbot, stadium_file, tmp_path
):
    assert window.open_file(stadium_file, ask=False)
    window.background.import_image(str(picture(tmp_path)))
    menu_action(window, "&View", "Lock Background").trigger()
    assert window.doc.track.background.locked
    item = window.background.item
    before = item.mapToScene(150, 60)
    window.transforms.rotate(90)
    assert item.mapToScene(150, 60) == before
    assert "locked, so it stays" in window.statusBar().currentMessage()
