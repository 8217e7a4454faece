"""Play mode puts the editing panels away and Back to editing brings them back as they
were: the same docks, the same tab in front."""

from __future__ import annotations

import pytest
from play_helpers import bots_setup
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


def in_front(dock) -> bool:
    """True when ``dock`` is the tab shown of its group (its contents can be seen)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


@pytest.mark.parametrize("tab", ["balance_dock", "lane_dock", "inspector_dock"])
def test_back_to_editing_brings_back_the_tab_that_was_in_front(qtbot, harbour_window, tab):
    window = harbour_window
    dock = getattr(window, tab)
    dock.show()
    dock.raise_()
    qtbot.waitUntil(lambda: in_front(dock))
    window.play.start(bots_setup(window, "beginner"))
    assert window.play.active and not dock.isVisible()
    qtbot.mouseClick(window.play.view.back_button, Qt.MouseButton.LeftButton)
    assert not window.play.active
    qtbot.waitUntil(lambda: in_front(dock))
    others = [window.inspector_dock, window.balance_dock, window.lane_dock]
    assert [d for d in others if in_front(d)] == [dock]
