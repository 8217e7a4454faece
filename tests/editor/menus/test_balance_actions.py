"""Tools > Simulate and Suggest Fixes on a circuit that cannot be played: off, and
saying why as the Balance panel's buttons do (their keys do nothing then)."""

from __future__ import annotations

import pytest

from trackside.engine.resources import resolve_track

pytestmark = pytest.mark.gui


def test_simulate_and_suggest_fixes_say_why_they_are_off(window):
    """On a blank file the entries kept their usual tips, only the panel's buttons said
    why they were off, and Ctrl+Shift+B did nothing without a word."""
    menu, panel = window.balance_menu, window.balance_panel
    assert window.open_file(resolve_track("quarry-hairpin"))
    actions = {menu.act_simulate: panel.run_button, menu.act_suggest_fixes: panel.suggest_button}
    usual = {action: (action.toolTip(), action.statusTip()) for action in actions}
    assert all(action.isEnabled() for action in actions)
    window.new_blank()
    why = panel.cannot_simulate()
    assert why
    for action, button in actions.items():
        assert not action.isEnabled()
        assert action.toolTip() == why == button.toolTip()
        assert action.statusTip() == why
    assert window.open_file(resolve_track("quarry-hairpin"))
    for action in actions:
        assert action.isEnabled()
        assert (action.toolTip(), action.statusTip()) == usual[action]
