"""Tools > Simulate, Suggest Fixes, Check with Stronger Bots, Compare with Variant…
and Compare with Saved Report…, and View > Heat Map: the Balance panel's actions,
and what it draws on the canvas (the heat map and its legend, the pink preview of
the fix chosen).

Each action brings the Balance panel up and starts its work there; Suggest Fixes
and Check with Stronger Bots are on exactly when the panel's own buttons are, and
Simulate and Suggest Fixes, when off, say why as those buttons do (and their keys
say it on the status bar). The
main window adds ``run_actions`` to its Tools menu and ``act_heatmap`` to View.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QObject, QPointF
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from trackside.editor.canvas.fix_preview import FixPreviewItem
from trackside.editor.canvas.heatmap import HeatLegend, HeatMapItem
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.menus.actions import make_action, say_why_when_off
from trackside.editor.panels.balance import BalancePanel
from trackside.editor.panels.fixes import FixPreview
from trackside.editor.panels.prompts import Prompts
from trackside.engine.balance.report import HEAT_TITLES


@runtime_checkable
class BalanceHost(Protocol):
    """What the Balance actions use of the editor's main window besides QMainWindow."""

    doc: TrackDocument
    scene: TrackScene
    view: CanvasView
    prompts: Prompts
    balance_panel: BalancePanel
    balance_dock: QDockWidget
    act_undo: QAction

    def say(self, text: str) -> None: ...
    def point_to_spaces(self, space_ids: Iterable[str]) -> None: ...
    def start_folder(self) -> Path: ...


class BalanceMenu(QObject):
    """The Balance panel's actions and canvas drawings of one main window."""

    def __init__(self, window: QMainWindow):
        if not isinstance(window, BalanceHost):
            raise TypeError("the Balance actions need the editor's main window and its panel")
        super().__init__(window)
        self.window = window
        self.panel = panel = window.balance_panel
        self.heatmap = HeatMapItem()
        window.scene.addItem(self.heatmap)
        self.heat_legend = HeatLegend(window.view)
        self.fix_preview = FixPreviewItem()
        window.scene.addItem(self.fix_preview)
        window.view.zoomChanged.connect(self._fit_fix_tags)
        self._fix_said = ""  # what the status bar said of the fix drawn last
        self.act_simulate = make_action(
            window,
            "&Simulate",
            self.simulate,
            "Ctrl+Shift+B",
            "Play bot games on this circuit and show how fair it is (Balance panel)",
        )
        self.act_suggest_fixes = make_action(
            window,
            "Suggest &Fixes",
            self.suggest_fixes,
            None,
            "Try candidate edits of this circuit, each on the same games as the circuit as "
            "it is, and list them best first (Balance panel)",
        )
        self.act_check_stronger = make_action(
            window,
            "Check with Stronger &Bots",
            self.check_with_stronger_bots,
            None,
            "Play the games of the run shown again with stronger bots and say whether its "
            "verdict holds (Balance panel)",
        )
        self.act_compare_variant = make_action(
            window,
            "Compare with &Variant…",
            self.compare_variant,
            None,
            "Play this circuit under the Balance panel's variant and under another on the "
            "same games, and show every figure's change (Balance panel)",
        )
        self.act_compare_report = make_action(
            window,
            "Compare with Saved &Report…",
            self.compare_saved_report,
            None,
            "Show every figure's change from a balance report saved by trackside simulate "
            "--report (Balance panel)",
        )
        self.act_heatmap = QAction("&Heat Map", window)
        self.act_heatmap.setShortcut(QKeySequence("Ctrl+Shift+H"))
        self.act_heatmap.setStatusTip("Tint spaces by where moves end in the last simulation")
        self.act_heatmap.setCheckable(True)
        self.act_heatmap.toggled.connect(lambda on: panel.set_heat("ends" if on else ""))
        self.act_heatmap.setEnabled(False)
        panel.heatChanged.connect(self._show_heat)
        panel.spacesActivated.connect(window.point_to_spaces)
        panel.fixActivated.connect(self.point_to_fix)
        panel.fixPreviewChanged.connect(self.preview_fix)
        panel.fixApplied.connect(self._say_applied)
        # Esc: the fix is chosen no more, so its preview goes and does not come back
        # unasked (on an undo back to the circuit it was tried on).
        window.scene.shownCleared.connect(panel.fixes.choose_none)
        # What Simulate and Suggest Fixes say when they can start; when they cannot,
        # the panel's reason instead, which their keys then say on the status bar.
        self._usual_tips = {
            action: (action.toolTip(), action.statusTip())
            for action in (self.act_simulate, self.act_suggest_fixes)
        }
        for action in self._usual_tips:
            say_why_when_off(action, window, panel.cannot_simulate, window.say)
        panel.buttonsChanged.connect(self._follow_buttons)
        self._follow_buttons()
        window.doc.changed.connect(lambda: self.heatmap.follow(window.doc.track))

    @property
    def run_actions(self) -> list[QAction]:
        """The Tools menu's entries: Simulate to Compare with Saved Report…."""
        return [
            self.act_simulate,
            self.act_suggest_fixes,
            self.act_check_stronger,
            self.act_compare_variant,
            self.act_compare_report,
        ]

    def raise_panel(self) -> None:
        """Bring the Balance panel to the front."""
        self.window.balance_dock.show()
        self.window.balance_dock.raise_()

    def simulate(self) -> None:
        """Tools > Simulate: bring the Balance panel up and start a run."""
        self.raise_panel()
        self.panel.start()

    def suggest_fixes(self) -> None:
        """Tools > Suggest Fixes: bring the Balance panel up and start a search for fixes."""
        self.raise_panel()
        self.panel.suggest()

    def check_with_stronger_bots(self) -> None:
        """Tools > Check with Stronger Bots: bring the Balance panel up and play the run
        shown again with stronger bots."""
        self.raise_panel()
        self.panel.check_deeper()

    def compare_variant(self) -> None:
        """Tools > Compare with Variant…: the open circuit under the Balance panel's
        variant and another, on the same games, every figure's change in the panel."""
        others = self.panel.other_variants()
        choice = self.window.prompts.compare_variant(
            self.panel.variant_box.currentText(), list(others)
        )
        if choice:
            self.raise_panel()
            self.panel.compare_variant(others.get(choice, choice))

    def compare_saved_report(self) -> None:
        """Tools > Compare with Saved Report…: every figure's change from a saved report."""
        path = self.window.prompts.report_path(str(self.window.start_folder()))
        if path:
            self.raise_panel()
            self.panel.compare_with_saved(path)

    def _follow_buttons(self) -> None:
        """The menu entries are on exactly when the panel's buttons are; Simulate and
        Suggest Fixes say why, as the buttons do, when the circuit cannot be played."""
        self.act_simulate.setEnabled(self.panel.can_simulate())
        self.act_suggest_fixes.setEnabled(self.panel.can_suggest())
        self.act_check_stronger.setEnabled(self.panel.can_check())
        why = self.panel.cannot_simulate()
        for action, (tool_tip, status_tip) in self._usual_tips.items():
            action.setToolTip(why or tool_tip)
            action.setStatusTip(why or status_tip)

    def preview_fix(self, preview: FixPreview | None) -> None:
        """Draw what the fix selected in the Balance panel would change (nothing for
        None), and say what the drawing is."""
        bar = self.window.statusBar()
        if preview is None:
            self.fix_preview.clear()
            if bar.currentMessage() == self._fix_said:  # it says so no more
                bar.clearMessage()
            return
        self.fix_preview.show_change(
            preview.before, preview.after, f"fix {preview.number}", self.window.view.scale_factor()
        )
        self._fix_said = (
            f"Fix {preview.number} is drawn in pink on the board, not made: {preview.text}. "
            "Apply makes it (one undo step)."
        )
        self.window.say(self._fix_said)

    def _fit_fix_tags(self, pixels_per_mm: float) -> None:
        """Lay the fix preview's tags out again, clear of the board's labels at this zoom."""
        if self.fix_preview.showing:
            self.fix_preview.fit_tags(pixels_per_mm)

    def _say_applied(self, text: str) -> None:
        """Say in the status bar that a fix was made, and how to take it back."""
        keys = self.window.act_undo.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        self.window.say(f"{text} ({keys} takes it back)")

    def point_to_fix(self, space_ids: list[str]) -> None:
        """Centre the view on what the fix clicked would change (its preview) and outline
        the spaces it is about, without selecting them."""
        window = self.window
        indices = window.doc.indices_of(space_ids)
        window.scene.point_out(indices)
        rect = self.fix_preview.extent()
        for i in indices:
            rect = rect.united(window.scene.space_items[i].sceneBoundingRect())
        if not rect.isEmpty():
            window.view.centre_on_rect(rect)

    def _show_heat(self, mode: str) -> None:
        self.act_heatmap.setEnabled(self.panel.report is not None)
        self.act_heatmap.blockSignals(True)
        self.act_heatmap.setChecked(bool(mode))
        self.act_heatmap.blockSignals(False)
        if not mode:
            self.heatmap.setVisible(False)
            self.heat_legend.hide()
            return
        values = self.panel.heat_values(mode)
        self.heatmap.show_values(self.window.doc.track, values, HEAT_TITLES[mode])
        self.heatmap.setVisible(True)
        peak = max(values.values(), default=0.0)
        view = self.window.view
        corner = QPointF(view.viewport().geometry().topLeft())
        self.heat_legend.show_legend(HEAT_TITLES[mode], peak, corner)
