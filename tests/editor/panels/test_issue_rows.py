"""Issue rows wrap to the width of the Issues panel, whatever width it is given later:
each row is as tall as its wrapped words, so none is cut at the panel's edge."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics

from trackside.editor.document.track_document import TrackDocument
from trackside.editor.panels.issues import IssuesPanel
from trackside.engine.resources import resolve_track
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.gui


def cut_rows(panel: IssuesPanel) -> list[str]:
    """The rows whose words, wrapped to the room the row has, need more height than it."""
    tree = panel.tree
    cut = []
    for item in panel.rows():
        rect = tree.visualItemRect(item)
        if rect.isEmpty():
            continue
        room = rect.width() - tree.iconSize().width() - 12  # the icon and the margins
        needed = QFontMetrics(tree.font()).boundingRect(
            QRect(0, 0, room, 10_000), Qt.TextFlag.TextWordWrap, item.text(0)
        )
        if needed.height() > rect.height():
            cut.append(item.text(0))
    return cut


@pytest.mark.parametrize("widths", [(900, 240), (240, 900, 320)])
def test_rows_are_laid_out_again_when_the_panel_is_narrowed_or_widened(qtbot, widths):
    """Quarry Hairpin's warning and the blank page's two errors, checked at one width,
    then shown at others: no row keeps a height made for another width."""
    blank, quarry = TrackDocument(), TrackDocument(load_track(resolve_track("quarry-hairpin")))
    for doc in (blank, quarry):
        panel = IssuesPanel(doc)
        qtbot.addWidget(panel)
        panel.resize(widths[0], 300)
        panel.show()
        qtbot.waitExposed(panel)
        panel.run_now()
        qtbot.waitUntil(lambda p=panel: p.checked and not p.busy)
        assert panel.rows() and cut_rows(panel) == []
        for width in widths[1:]:
            panel.resize(width, 300)
            qtbot.waitUntil(lambda p=panel: cut_rows(p) == [])
            assert all(item.toolTip(0).startswith(item.text(0)) for item in panel.rows())
