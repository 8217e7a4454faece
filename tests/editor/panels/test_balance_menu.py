"""Tools > Suggest Fixes and Check with Stronger Bots do what the Balance panel's
buttons do, when they can."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


def test_the_tools_menu_suggests_fixes_and_checks_as_the_buttons_do(qtbot, quarry):
    """Tools > Suggest Fixes and Check with Stronger Bots, next to Simulate, start what
    the panel's buttons start, and are on exactly when those buttons are: while a run
    goes, before a run to check, after an edit stales it."""
    panel = quarry.balance_panel
    panel.bots_box.setCurrentText("Greedy bots")
    pairs = (
        (quarry.balance_menu.act_suggest_fixes, panel.suggest_button),
        (quarry.balance_menu.act_check_stronger, panel.check_button),
    )

    def follow() -> bool:
        return all(act.isEnabled() == button.isEnabled() for act, button in pairs)

    menu = next(a.menu() for a in quarry.menuBar().actions() if a.text() == "&Tools")
    tools = menu.actions()
    menus = quarry.balance_menu
    at = tools.index(menus.act_simulate)
    assert tools[at + 1 : at + 3] == [menus.act_suggest_fixes, menus.act_check_stronger]
    assert all(act.statusTip() for act, _button in pairs)
    assert follow() and quarry.balance_menu.act_suggest_fixes.isEnabled()
    assert not quarry.balance_menu.act_check_stronger.isEnabled()  # no run to check yet

    qtbot.mouseClick(panel.suggest_button, Qt.MouseButton.LeftButton)
    said_by_button = panel.status.text()
    assert panel.running and follow() and not quarry.balance_menu.act_suggest_fixes.isEnabled()
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert follow() and quarry.balance_menu.act_suggest_fixes.isEnabled()
    quarry.balance_menu.act_suggest_fixes.trigger()
    assert panel.running and panel.status.text() == said_by_button
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)

    quarry.balance_menu.act_simulate.trigger()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert follow() and quarry.balance_menu.act_check_stronger.isEnabled()
    quarry.balance_menu.act_check_stronger.trigger()
    assert panel.running and "stronger bots" in panel.status.text()
    assert follow() and not quarry.balance_menu.act_check_stronger.isEnabled()
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    assert follow()
    quarry.scene.select_indices([12])
    qtbot.keyClick(quarry.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert panel.stale and follow() and not quarry.balance_menu.act_check_stronger.isEnabled()
