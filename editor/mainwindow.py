"""The main window: canvas, tool bar, panels, menus and the document's life cycle."""

from __future__ import annotations

import os
import platform
from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

import PySide6
from PySide6.QtCore import QByteArray, QPointF, QRectF, QSettings, Qt, qVersion
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QStackedWidget,
    QStyle,
    QTabBar,
    QToolBar,
    QToolButton,
    QUndoView,
    QWidget,
)

from trackside import __version__
from trackside.editor.canvas.heatmap import HeatLegend, HeatMapItem
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.document import commands
from trackside.editor.document.autosave import Autosaver, leftover_autosaves
from trackside.editor.document.earlier_saves import EarlierSaves, versions_of
from trackside.editor.document.file_guard import FileGuard, difference
from trackside.editor.document.files import (
    LoadResult,
    copy_path,
    is_bundled,
    load_for_editing,
    start_folder,
    suggested_stem,
)
from trackside.editor.document.track_document import UNTITLED, TrackDocument, blank_track
from trackside.editor.menus.background import BackgroundActions
from trackside.editor.menus.printing import PrintMenu
from trackside.editor.menus.track import TrackMenu
from trackside.editor.menus.transform import TransformActions
from trackside.editor.panels.balance import BalancePanel
from trackside.editor.panels.compare import ComparePanel
from trackside.editor.panels.export import ExportDialog, export_board
from trackside.editor.panels.first_run import FirstRun
from trackside.editor.panels.inspector import Inspector
from trackside.editor.panels.issues import IssuesPanel, ShownIssue
from trackside.editor.panels.lanes import LanePanel
from trackside.editor.panels.movement import MovementDock
from trackside.editor.panels.prompts import Prompts
from trackside.editor.panels.shortcuts import ShortcutsDialog
from trackside.editor.play import PlayMode
from trackside.editor.tools import TOOLS, Tool
from trackside.editor.tools.icons import tool_icon
from trackside.editor.tools.lane_tool import LaneTool
from trackside.editor.tools.lines import BettingLineTool
from trackside.editor.tools.moves import MovesTool
from trackside.editor.widgets.app_icon import app_icon
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.balance.report import HEAT_TITLES
from trackside.engine.errors import TracksideError
from trackside.engine.game.variants import bundled_variants
from trackside.engine.resources import bundled_tracks
from trackside.engine.text import plural
from trackside.engine.track.model import Track, save_track
from trackside.engine.yamlio import check_writable

APP_NAME = "Trackside"
MAX_RECENT = 8
STATUS_MS = 8000  # how long a message about a finished step stays in the status bar
ToolT = TypeVar("ToolT", bound=Tool)


class MainWindow(QMainWindow):
    """One document in one window (open replaces it, after asking to save)."""

    def __init__(
        self,
        prompts: Prompts | None = None,
        settings: QSettings | None = None,
        autosave_dir: Path | None = None,
        autosave_ms: int | None = None,
        earlier_saves_dir: Path | None = None,
    ):
        super().__init__()
        self.setWindowIcon(app_icon())
        self.prompts = prompts or Prompts(self)
        self.settings = settings or QSettings()
        self.doc = TrackDocument(parent=self)
        self.scene = TrackScene(self.doc, self)  # kept referenced: a view does not own it
        self.view = CanvasView(self.scene, self)
        self.setCentralWidget(self.view)
        kwargs = {"interval_ms": autosave_ms} if autosave_ms else {}
        self.autosave = Autosaver(self.doc, autosave_dir, parent=self, **kwargs)
        if earlier_saves_dir is None and autosave_dir is not None:
            earlier_saves_dir = Path(autosave_dir).parent / "earlier-saves"  # kept together
        self.earlier_saves = EarlierSaves(earlier_saves_dir)
        self._asking_disk = False
        self.guard = FileGuard(self)
        self.read_only = False  # opened while another editor had the file: Save asks for another
        self.tools: dict[str, Tool] = {}
        self.tool_actions: dict[str, QAction] = {}
        self._build_panels()
        self._build_status_bar()
        self._build_actions()
        self.transforms = TransformActions(
            self.doc,
            self.scene,
            self.view,
            self.prompts,
            self.say,
            lambda: self.tool.name == "select",
            [self.act_duplicate, self.act_delete],
            self,
        )
        self.background = BackgroundActions(
            self.doc, self.scene, self.prompts, self.say, self.set_tool, self
        )
        self._build_tool_docks()
        self._build_balance()
        self._build_menus()
        self._build_toolbars()
        self._build_play()
        self._build_help_menu()
        self.doc.modifiedChanged.connect(self._update_title)
        self.doc.pathChanged.connect(self._update_title)
        self.doc.metaChanged.connect(self._update_title)
        self.doc.undo_stack.cleanChanged.connect(self._update_title)
        self.scene.cursorMoved.connect(self._show_cursor)
        self.doc.changed.connect(self._describe_cursor_again)
        self.scene.selectionChanged.connect(self._update_selection_actions)
        self.view.zoomChanged.connect(self._show_zoom)
        self.issues.issueActivated.connect(self.show_issue)
        self.guard.changedOnDisk.connect(self._on_disk_changed)
        self.guard.removedFromDisk.connect(self._on_disk_removed)
        self.autosave.failed.connect(self._show_autosave_failure)
        self.autosave.recovered.connect(self.autosave_label.hide)
        self.issues.reportReady.connect(self._show_counts)
        for bar in self.findChildren(QTabBar):  # the docks' tabs: whole names, scrolled
            bar.setElideMode(Qt.TextElideMode.ElideNone)
            bar.setUsesScrollButtons(True)
        self.set_tool("select")
        self.issues.schedule()  # a blank page already lacks things; say so
        self._update_title()
        self._update_selection_actions()
        saved = self.settings.value("geometry", b"")
        if not (isinstance(saved, QByteArray | bytes) and saved and self.restoreGeometry(saved)):
            screen = self.screen().availableGeometry()
            self.resize(
                min(1500, int(screen.width() * 0.96)), min(940, int(screen.height() * 0.94))
            )

    # -- building ------------------------------------------------------------
    def _build_panels(self) -> None:
        self.inspector = Inspector(self.doc, self.scene)
        self.inspector.refused.connect(self.say)
        self.issues = IssuesPanel(self.doc)
        self.undo_view = QUndoView(self.doc.undo_stack)
        self.undo_view.setEmptyLabel("Opened")
        self.inspector_dock = self._dock(
            "Inspector", scrolled(self.inspector), Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.history_dock = self._dock(
            "History", self.undo_view, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.issues_dock = self._dock("Issues", self.issues, Qt.DockWidgetArea.RightDockWidgetArea)
        self.options_stack = QStackedWidget()
        self.options_dock = self._dock(
            "Tool Options", self.options_stack, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.compare = ComparePanel(
            self.doc,
            self.scene,
            self.view,
            self.prompts,
            lambda path: versions_of(path, self.earlier_saves, self.autosave.directory),
        )
        self.compare_dock = self._dock(
            "Compare", self.compare, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.compare.wanted.connect(self.compare_dock.show)
        self.compare.wanted.connect(self.compare_dock.raise_)
        self.tabifyDockWidget(self.inspector_dock, self.history_dock)
        self.tabifyDockWidget(self.inspector_dock, self.options_dock)
        self.tabifyDockWidget(self.inspector_dock, self.compare_dock)
        self.compare_dock.hide()
        self.options_dock.hide()
        self.inspector_dock.raise_()
        # Wide enough for the Lanes table's six columns, kept-lane choices whole.
        self.resizeDocks([self.inspector_dock], [410], Qt.Orientation.Horizontal)
        # The issues list gets room for a dozen rows, not three.
        self.resizeDocks(
            [self.inspector_dock, self.issues_dock], [520, 320], Qt.Orientation.Vertical
        )

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower() + "Dock")
        dock.setWidget(widget)
        dock.visibilityChanged.connect(lambda visible, d=dock: self._dock_visibility(d, visible))
        self.addDockWidget(area, dock)
        return dock

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.hint_label = ElidedLabel()
        self.hint_label.setMinimumWidth(200)
        # Opaque (the status bar's colour): its new text on every hover repaints the label
        # alone, not the status bar and the window under it.
        self.hint_label.setAutoFillBackground(True)
        self.space_label = QLabel()
        self.space_label.setMinimumWidth(150)
        self.cursor_label = QLabel("x —  y —")
        self._cursor: tuple[float, float] | None = None  # the pointer on the board, in mm
        self.cursor_label.setMinimumWidth(170)
        self.zoom_label = QLabel()
        self.zoom_label.setMinimumWidth(60)
        self.zoom_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.counts_label = QLabel()
        self.autosave_label = QLabel()
        self.autosave_label.setStyleSheet("color: #b00020; font-weight: bold")
        self.autosave_label.hide()
        bar.addWidget(self.hint_label, 1)
        bar.addPermanentWidget(self.autosave_label)
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.space_label)
        bar.addPermanentWidget(self.cursor_label)
        bar.addPermanentWidget(self.zoom_label)

    def _action(
        self,
        text: str,
        slot,
        shortcut=None,
        tip: str = "",
        checkable: bool = False,
        checked: bool = False,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, QKeySequence.StandardKey):
                action.setShortcuts(shortcut)
            else:
                action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip or text.replace("&", ""))
        if checkable:
            action.setCheckable(True)
            action.setChecked(checked)
            action.toggled.connect(slot)
        else:
            action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        a = self._action
        self.act_new = a("&New", self.new_blank, K.New, "Start a blank circuit")
        self.act_open = a("&Open…", self.open_dialog, K.Open, "Open a track file")
        self.act_save = a("&Save", self.save, K.Save, "Save the track (atomic)")
        self.act_save_as = a("Save &As…", self.save_as, K.SaveAs, "Save the track to another file")
        self.act_close = a(
            "&Close", self.close_document, K.Close, "Close the track (keeps the window)"
        )
        self.export_actions = [
            a("Export &PNG…", lambda: self.export("png"), None, "A picture of the board"),
            a("Export &SVG…", lambda: self.export("svg"), None, "A drawing of the board"),
            a(
                "Export PDF at True &Scale…",
                lambda: self.export("pdf"),
                "Ctrl+E",
                "One page the size of the board",
            ),
            a(
                "Print on A&4 Pages (PDF)…",
                lambda: self.export("pdf", "a4"),
                None,
                "True scale, tiled over A4 pages with overlap and alignment marks",
            ),
            a(
                "Print on &Letter Pages (PDF)…",
                lambda: self.export("pdf", "letter"),
                None,
                "True scale, tiled over US Letter pages with overlap and alignment marks",
            ),
        ]
        self.act_export_dialog = a(
            "&Export…",
            lambda: self.export_dialog(None),
            "Ctrl+Shift+E",
            "PNG, SVG or PDF: choose the paper for a print and the DPI of a picture",
        )
        self.print_menu = PrintMenu(self)  # Print… (system dialog), calibration sheet
        self.first_run = FirstRun(self)  # start page, New from Template, the tour
        # A picture imported to trace over is a start too: the start page makes way.
        self.doc.backgroundChanged.connect(
            lambda: self.first_run.dismiss() if self.doc.track.background else None
        )
        self.act_print = self.print_menu.act_print
        self.act_quit = a("&Quit", self.close, K.Quit)
        stack = self.doc.undo_stack
        self.act_undo = stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts(K.Undo)
        self.act_redo = stack.createRedoAction(self, "&Redo")
        redo_keys = QKeySequence.keyBindings(K.Redo)
        for extra in ("Ctrl+Shift+Z", "Ctrl+Y"):
            if QKeySequence(extra) not in redo_keys:
                redo_keys.append(QKeySequence(extra))
        self.act_redo.setShortcuts(redo_keys)
        self.act_delete = a("&Delete", self.delete_selection, K.Delete, "Delete the selection")
        self.act_delete.setShortcuts(
            [QKeySequence(Qt.Key.Key_Delete), QKeySequence(Qt.Key.Key_Backspace)]
        )
        # The keys act on the canvas only, so Backspace in a panel never deletes a space.
        self.act_delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(self.act_delete)
        self.act_duplicate = a(
            "D&uplicate", self.duplicate_selection, "Ctrl+D", "Duplicate the selected spaces"
        )
        self.act_select_all = a("Select &All", self.select_all, K.SelectAll)
        self.act_deselect = a("Select &None", lambda: self.scene.select_indices([]), "Ctrl+Shift+A")
        self.act_zoom_in = a("Zoom &In", lambda: self.view.zoom_by(1.25), K.ZoomIn)
        self.act_zoom_out = a("Zoom &Out", lambda: self.view.zoom_by(0.8), K.ZoomOut)
        self.act_fit = a("&Fit to Window", self.view.fit_to_view, "Ctrl+0", "Show the whole track")
        self.act_true = a("True &Size", self.true_size, "Ctrl+1", "Millimetres as on paper")
        self.act_zoom_sel = a(
            "Zoom to Se&lection",
            self.zoom_to_selection,
            "Ctrl+2",
            "Fill the window with the selected spaces and lines",
        )
        self.act_grid = a("Show &Grid", self._toggle_grid, "Ctrl+'", checkable=True, checked=True)
        self.act_racing = a(
            "Show &Racing Line",
            self.scene.racing_line.setVisible,
            "Ctrl+R",
            "Show the racing line and snap to it",
            checkable=True,
        )
        self.act_ids = a(
            "Show Space &Ids", self.scene.set_show_ids, "Ctrl+I", checkable=True, checked=True
        )
        self.act_arrows = a(
            "Show &Forward Moves",
            self._toggle_arrows,
            "Ctrl+M",
            "Arrows from each space to its forward neighbours; dead ends ringed",
            checkable=True,
        )
        self.act_snap = a(
            "S&nap",
            self._toggle_snap,
            "%",
            "Snap to grid, corners, edges and racing line (hold Ctrl to suspend)",
            checkable=True,
            checked=True,
        )
        group = QActionGroup(self)
        group.setExclusive(True)
        for cls in TOOLS:
            tool = cls(self.scene)
            tool.hintChanged.connect(self.hint_label.setText)
            tool.toolRequested.connect(self.set_tool)
            self.tools[tool.name] = tool
            act = QAction(tool_icon(tool.name, tool.icon), tool.label, self)
            act.setCheckable(True)
            if tool.shortcut:
                act.setShortcut(QKeySequence(tool.shortcut))
            act.setToolTip(f"{tool.label} ({tool.shortcut})\n{tool.hint}")
            act.setStatusTip(tool.hint)
            act.triggered.connect(lambda _c=False, name=tool.name: self.set_tool(name))
            group.addAction(act)
            self.tool_actions[tool.name] = act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        m.addAction(self.act_new)
        m.addMenu(self.first_run.template_menu)
        self.bundled_menu = m.addMenu("New from &Circuit")
        for path in bundled_tracks():
            act = self.bundled_menu.addAction(path.stem.replace("-", " ").title())
            act.triggered.connect(lambda _c=False, p=path: self.new_from(p))
        self.bundled_menu.setEnabled(bool(bundled_tracks()))
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        m.addSeparator()
        m.addActions(self.compare.actions_for_menu())
        m.addAction(self.background.act_import)
        m.addSeparator()
        m.addActions([self.act_save, self.act_save_as])
        m.addSeparator()
        export_menu = m.addMenu("&Export")
        export_menu.addAction(self.act_export_dialog)
        export_menu.addSeparator()
        export_menu.addActions(self.export_actions[:3])
        export_menu.addSeparator()
        export_menu.addActions(self.export_actions[3:])
        m.addActions(self.print_menu.actions)
        m.addSeparator()
        m.addAction(self.act_close)
        m.addAction(self.act_quit)
        m = bar.addMenu("&Edit")
        m.addActions([self.act_undo, self.act_redo])
        m.addSeparator()
        m.addActions([self.act_delete, self.act_duplicate])
        self.transforms.add_to(m)
        m.addSeparator()
        m.addActions([self.act_select_all, self.act_deselect])
        self.track_menu = TrackMenu(self, self.scene, self.view)  # at a space; right-click too
        self.transforms.start_menu_with(self.track_menu.menu_at)  # one right-click menu
        m.addSeparator()
        m.addActions(self.track_menu.actions)
        m = bar.addMenu("&View")
        m.addActions(
            [self.act_zoom_in, self.act_zoom_out, self.act_fit, self.act_true, self.act_zoom_sel]
        )
        m.addSeparator()
        m.addActions([self.act_grid, self.act_racing, self.act_arrows, self.act_ids, self.act_snap])
        m.addAction(self.act_heatmap)
        m.addMenu(self.background.menu)
        m.addSeparator()
        for dock in (
            self.inspector_dock,
            self.issues_dock,
            self.compare_dock,
            self.history_dock,
            self.lane_dock,
            self.movement_dock,
            self.balance_dock,
        ):
            m.addAction(dock.toggleViewAction())
        m = bar.addMenu("&Tools")
        m.addActions(list(self.tool_actions.values()))
        m.addSeparator()
        m.addActions([self.act_simulate, self.act_compare_variant, self.act_compare_report])
        self._fill_recent()

    def _build_play(self) -> None:
        """Play mode: its board view takes turns with the canvas; its menu goes after Tools."""
        self.play = PlayMode(self)
        self.play_menu = self.menuBar().addMenu("&Play")
        for action in self.play.menu_actions():
            if action is None:
                self.play_menu.addSeparator()
            else:
                self.play_menu.addAction(action)

    def _build_help_menu(self) -> None:
        """Help, last in the menu bar (after Play)."""
        self.act_about = self._action(
            "&About Trackside", self.show_about, None, "Version, licence and the libraries in use"
        )
        self.act_about.setMenuRole(QAction.MenuRole.AboutRole)
        self.act_shortcuts = self._action(
            "&Keyboard Shortcuts…",
            self.show_shortcuts,
            QKeySequence.StandardKey.HelpContents,
            "Every shortcut, menu by menu",
        )
        menu = self.menuBar().addMenu("&Help")
        menu.addAction(self.act_shortcuts)
        menu.addAction(self.first_run.act_tour)
        menu.addSeparator()
        menu.addAction(self.act_about)

    def show_shortcuts(self) -> None:
        """Help > Keyboard Shortcuts…"""
        ShortcutsDialog(self.menuBar(), self).exec()
        self.focus_canvas()

    def say(self, text: str) -> None:
        """Tell what a step did in the status bar, for a few seconds."""
        self.statusBar().showMessage(text, STATUS_MS)

    def focus_canvas(self) -> None:
        """Give the keyboard back to the canvas (after a dialog, or a panel closed)."""
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _dock_visibility(self, dock: QDockWidget, visible: bool) -> None:
        focus = QApplication.focusWidget()
        if not visible and (focus is None or dock.isAncestorOf(focus)):
            self.focus_canvas()

    def about_text(self) -> str:
        """What the About box says: name, version, purpose, licence, the Qt in use."""
        return (
            f"<h3>Trackside {__version__}</h3>"
            "<p>Draw, check, print and play your own circuits for the racing board game "
            "<i>Downforce</i>.</p>"
            f"<p>MIT licence. Qt {qVersion()}, PySide6 {PySide6.__version__}, "
            f"Python {platform.python_version()}.</p>"
        )

    def show_about(self) -> None:
        """Help > About Trackside."""
        box = QMessageBox(self)
        box.setWindowTitle("About Trackside")
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(self.about_text())
        box.setIconPixmap(app_icon().pixmap(96, 96))
        box.exec()
        self.focus_canvas()

    def _build_tool_docks(self) -> None:
        """The Lanes and Movement panels: each comes to the front with its tool."""
        self.lane_panel = LanePanel(self.tool_of(LaneTool))
        self.lane_dock = self._dock(
            "Lanes", scrolled(self.lane_panel), Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.movement_panel = MovementDock(
            self.tool_of(MovesTool), self.scene, self.doc, self.act_arrows
        )
        self.movement_dock = self._dock(
            "Movement", scrolled(self.movement_panel), Qt.DockWidgetArea.RightDockWidgetArea
        )
        for dock in (self.lane_dock, self.movement_dock):
            self.tabifyDockWidget(self.inspector_dock, dock)
        self.inspector_dock.raise_()
        self._tool_docks = {
            self.tools["lanes"]: self.lane_dock,
            self.tools["moves"]: self.movement_dock,
        }
        self.scene.toolChanged.connect(self._raise_tool_dock)

    def _build_balance(self) -> None:
        """The Balance panel, its Simulate action and the heat map on the canvas."""
        self.balance_panel = BalancePanel(self.doc)
        self.balance_dock = self._dock(
            "Balance", scrolled(self.balance_panel), Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.tabifyDockWidget(self.inspector_dock, self.balance_dock)
        self.inspector_dock.raise_()
        self.heatmap = HeatMapItem()
        self.scene.addItem(self.heatmap)
        self.heat_legend = HeatLegend(self.view)
        self.act_simulate = self._action(
            "&Simulate…",
            self.simulate,
            "Ctrl+Shift+B",
            "Play bot games on this circuit and show how fair it is (Balance panel)",
        )
        self.act_compare_variant = self._action(
            "Compare with &Variant…",
            self.compare_variant,
            None,
            "Play this circuit under the Balance panel's variant and under another on the "
            "same games, and show every figure's change (Balance panel)",
        )
        self.act_compare_report = self._action(
            "Compare with Saved &Report…",
            self.compare_saved_report,
            None,
            "Show every figure's change from a balance report saved by trackside simulate "
            "--report (Balance panel)",
        )
        self.act_heatmap = self._action(
            "&Heat Map",
            lambda on: self.balance_panel.set_heat("ends" if on else ""),
            "Ctrl+Shift+H",
            "Tint spaces by where moves end in the last simulation",
            checkable=True,
        )
        self.act_heatmap.setEnabled(False)
        self.balance_panel.heatChanged.connect(self._show_heat)
        self.balance_panel.spaceActivated.connect(self.point_to_space)
        self.doc.changed.connect(lambda: self.heatmap.follow(self.doc.track))

    def simulate(self) -> None:
        """Tools > Simulate…: bring the Balance panel up and start a run."""
        self.balance_dock.show()
        self.balance_dock.raise_()
        self.balance_panel.start()

    def compare_variant(self) -> None:
        """Tools > Compare with Variant…: the open circuit under the Balance panel's
        variant and another, on the same games, every figure's change in the panel."""
        panel = self.balance_panel
        bundled = [path.stem for path in bundled_variants()]
        choice = self.prompts.compare_variant(panel.variant_box.currentText(), bundled)
        if choice:
            self.balance_dock.show()
            self.balance_dock.raise_()
            panel.compare_variant(choice)

    def compare_saved_report(self) -> None:
        """Tools > Compare with Saved Report…: every figure's change from a saved report."""
        path = self.prompts.report_path(str(self.start_folder()))
        if path:
            self.balance_dock.show()
            self.balance_dock.raise_()
            self.balance_panel.compare_with_saved(path)

    def _show_heat(self, mode: str) -> None:
        self.act_heatmap.setEnabled(self.balance_panel.report is not None)
        self.act_heatmap.blockSignals(True)
        self.act_heatmap.setChecked(bool(mode))
        self.act_heatmap.blockSignals(False)
        if not mode:
            self.heatmap.setVisible(False)
            self.heat_legend.hide()
            return
        values = self.balance_panel.heat_values(mode)
        self.heatmap.show_values(self.doc.track, values, HEAT_TITLES[mode])
        self.heatmap.setVisible(True)
        peak = max(values.values(), default=0.0)
        corner = QPointF(self.view.viewport().geometry().topLeft())
        self.heat_legend.show_legend(HEAT_TITLES[mode], peak, corner)

    def _raise_tool_dock(self, tool: object) -> None:
        """A tool's panel comes to the front with it and gives way to the Inspector after."""
        own = self._tool_docks.get(tool)  # type: ignore[call-overload]
        if own is not None:
            own.show()
            own.raise_()
        elif any(not d.visibleRegion().isEmpty() for d in self._tool_docks.values()):
            self.inspector_dock.raise_()
        if tool is self.tools.get("racing"):
            self.act_racing.setChecked(True)

    def export_dialog(self, paper: str | None) -> None:
        """File > Export… (``paper`` None), or the export dialog set for tiling on ``paper``."""
        self.make_export_dialog(paper).exec()
        self.focus_canvas()

    def make_export_dialog(self, paper: str | None = None) -> ExportDialog:
        """The export dialog for the open track, not yet shown."""
        return ExportDialog(
            self,
            self.doc,
            self.prompts,
            lambda text: self.statusBar().showMessage(text, 8000),
            paper,
            self.scene.racing_line.isVisible(),
        )

    def _build_toolbars(self) -> None:
        tb = QToolBar("Tools", self)
        tb.setObjectName("toolsBar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        tb.setMovable(False)
        self.addToolBar(Qt.ToolBarArea.LeftToolBarArea, tb)
        tb.addActions(list(self.tool_actions.values()))
        top = QToolBar("Document", self)
        top.setObjectName("documentBar")
        top.setMovable(False)
        top.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        top.setIconSize(top.iconSize() * 0.8)
        SP = QStyle.StandardPixmap
        for act, pix in (
            (self.act_new, SP.SP_FileIcon),
            (self.act_open, SP.SP_DialogOpenButton),
            (self.act_save, SP.SP_DialogSaveButton),
            (self.act_undo, SP.SP_ArrowBack),
            (self.act_redo, SP.SP_ArrowForward),
            (self.act_delete, SP.SP_DialogDiscardButton),
        ):
            act.setIcon(self.style().standardIcon(pix))
        top.addActions([self.act_new, self.act_open, self.act_save])
        top.addSeparator()
        top.addActions(self._toolbar_undo_redo())
        top.addSeparator()
        top.addActions([self.act_duplicate, self.act_delete])
        top.addSeparator()
        top.addActions([self.act_fit, self.act_snap, self.act_racing, self.act_arrows])
        for act in (self.act_snap, self.act_racing, self.act_arrows):
            button = top.widgetForAction(act)
            if isinstance(button, QToolButton):
                button.setCheckable(True)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, top)

    def _toolbar_undo_redo(self) -> list[QAction]:
        """Undo and Redo buttons with fixed labels (the menu's say what they undo)."""
        stack = self.doc.undo_stack
        undo = QAction(self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowBack), "Undo", self)
        redo = QAction(
            self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowForward), "Redo", self
        )
        undo.triggered.connect(stack.undo)
        redo.triggered.connect(stack.redo)
        undo.setEnabled(stack.canUndo())
        redo.setEnabled(stack.canRedo())
        stack.canUndoChanged.connect(undo.setEnabled)
        stack.canRedoChanged.connect(redo.setEnabled)
        self.tb_undo, self.tb_redo = undo, redo
        stack.undoTextChanged.connect(self._undo_tip)
        stack.redoTextChanged.connect(self._redo_tip)
        return [undo, redo]

    def _undo_tip(self, text: str) -> None:
        self.tb_undo.setToolTip(f"Undo {text}".strip())

    def _redo_tip(self, text: str) -> None:
        self.tb_redo.setToolTip(f"Redo {text}".strip())

    # -- tools and canvas -----------------------------------------------------
    def set_tool(self, name: str) -> None:
        """Activate the tool called ``name`` (see ``editor.tools.TOOLS``)."""
        tool = self.tools.get(name)
        if tool is None:
            return
        self.tool_actions[name].setChecked(True)
        self.scene.set_tool(tool)  # the tool's activate() shows its hint
        options = tool.options_widget()
        if options is not None:
            if self.options_stack.indexOf(options) < 0:
                self.options_stack.addWidget(options)
            self.options_stack.setCurrentWidget(options)
            self.options_dock.setWindowTitle(f"{tool.label} Options")
            self.options_dock.show()
            self.options_dock.raise_()
        elif self.options_dock.isVisible():
            self.options_dock.hide()
            self.inspector_dock.raise_()

    @property
    def tool(self) -> Tool:
        """The active tool."""
        tool = self.scene.tool
        if not isinstance(tool, Tool):
            raise RuntimeError("the canvas has no active tool")
        return tool

    def tool_of(self, kind: type[ToolT]) -> ToolT:
        """The window's tool of this class."""
        tool = self.tools[kind.name]
        if not isinstance(tool, kind):
            raise TypeError(f"the {kind.name!r} tool is not a {kind.__name__}")
        return tool

    def _toggle_grid(self, on: bool) -> None:
        self.view.show_grid = on
        self._toggle_snap(self.act_snap.isChecked())

    def _toggle_arrows(self, on: bool) -> None:
        self.scene.forward_arrows.setVisible(on)
        self.scene.forward_arrows.refresh()

    def _toggle_snap(self, on: bool) -> None:
        self.scene.set_snapping(on, grid=on and self.act_grid.isChecked())

    def true_size(self) -> None:
        """Zoom so a millimetre on screen is a millimetre on paper."""
        self.view.set_zoom(self.logicalDpiX() / 25.4)

    def zoom_to_selection(self) -> None:
        """Fit the selected spaces and lines in the window (the whole track if none)."""
        rect = QRectF()
        for i in self.scene.selected_indices():
            rect = rect.united(self.scene.space_items[i].sceneBoundingRect())
        for k in self.scene.selected_lines():
            rect = rect.united(self.scene.line_items[k].sceneBoundingRect())
        if rect.isEmpty():
            self.view.fit_to_view()
            return
        pad = max(rect.width(), rect.height()) * 0.15 + 5
        self.view.fitInView(rect.adjusted(-pad, -pad, pad, pad), Qt.AspectRatioMode.KeepAspectRatio)
        self.view.zoomChanged.emit(self.view.scale_factor())

    def _show_cursor(self, x: float, y: float) -> None:
        self._cursor = (x, y)
        self.cursor_label.setText(f"x {x:8.1f}  y {y:8.1f} mm")
        self.space_label.setText(self._describe_space_at(x, y))

    def _describe_cursor_again(self) -> None:
        """An edit under a still pointer (Delete, undo) changes what lies under it."""
        if self._cursor is not None:
            self.space_label.setText(self._describe_space_at(*self._cursor))

    def _describe_space_at(self, x: float, y: float) -> str:
        """'b12 · lane 1 · 2 forward' for the space under the pointer (forward: R-MOVE-1)."""
        index = self.scene.space_at(QPointF(x, y))
        if index is None:
            return ""
        if index >= len(self.doc.track.spaces):
            return ""
        sp = self.doc.track.spaces[index]
        text = f"{sp.id} · lane {sp.lane}"
        g = self.scene.geometry()
        if g is not None and index < g.n:
            text += f" · {len(g.forward[index])} forward"
        return text

    def _show_zoom(self, scale: float) -> None:
        true = self.logicalDpiX() / 25.4
        self.zoom_label.setText(f"{100 * scale / true:.0f} %")

    def _show_counts(self, errors: int, warnings: int) -> None:
        self.counts_label.setText(
            f"<span style='color:#e5484d'>● {errors}</span> "
            f"<span style='color:#f0a020'>▲ {warnings}</span>"
        )
        # One pass over the track for all errors: a whole track in error stays instant.
        errors_only = [issue for issue in self.issues.issues if issue.severity == "error"]
        ids = [space_id for issue in errors_only for space_id in issue.spaces]
        lines = {issue.line for issue in errors_only if issue.line is not None}
        self.scene.set_problems(set(self.doc.indices_of(ids)), lines)

    def _update_selection_actions(self) -> None:
        try:
            has = bool(self.scene.selected_indices()) or bool(self.scene.selected_lines())
        except RuntimeError:
            return
        self.act_duplicate.setEnabled(bool(self.scene.selected_indices()))
        self.act_delete.setEnabled(has or self.tool is not None)

    # -- edit actions --------------------------------------------------------
    def delete_selection(self) -> None:
        """Delete the picked corner (corner tool) or the selected spaces."""
        if self.tool is not None and self.tool.delete_selection():
            return
        indices = self.scene.selected_indices()
        if indices:
            commands.delete_spaces(self.doc, indices)
            what, them = (
                (f"{len(indices)} spaces", "them") if len(indices) > 1 else ("1 space", "it")
            )
            undo = self.act_undo.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            self.statusBar().showMessage(f"Deleted {what} ({undo} brings {them} back)", 8000)

    def duplicate_selection(self) -> None:
        """Copy the selected spaces, offset by 10 mm, and select the copies."""
        new = commands.duplicate_spaces(self.doc, self.scene.selected_indices())
        if new:
            self.scene.select_indices(new)

    def select_all(self) -> None:
        self.scene.select_indices(range(len(self.doc.track.spaces)))

    def show_issue(self, issue: ShownIssue) -> None:
        """Select what an issue is about and centre the view on it; for something not
        placed yet, take up the tool that places it."""
        if issue.tool is not None:
            self.set_tool(issue.tool)
            if issue.tool == "betting" and issue.line is not None:
                self.tool_of(BettingLineTool).choose(issue.line)
            return
        self.show_spaces(issue.spaces, [issue.line] if issue.line is not None else [])

    def point_to_space(self, space_id: str) -> None:
        """Outline a space a hint is about and centre the view on it, without selecting
        it: what the tools act on stays as the designer chose."""
        if self.show_spaces([space_id], select=False):
            self.statusBar().showMessage(
                f"Space {space_id} is outlined, not selected (click it to select it; "
                "Esc clears the outline)",
                8000,
            )

    def show_spaces(
        self, space_ids: Iterable[str], lines: Iterable[int] = (), select: bool = True
    ) -> bool:
        """Select spaces (by id) and lines, or with ``select`` False only outline the
        spaces, and centre the view on them; False when there is none."""
        indices = self.doc.indices_of(space_ids)
        lines = list(lines)
        if not indices and not lines:
            return False
        if select:
            self.scene.select_indices(indices, lines)
        else:
            self.scene.point_out(indices)
        rect = QRectF()
        for i in indices:
            rect = rect.united(self.scene.space_items[i].sceneBoundingRect())
        for k in lines:
            rect = rect.united(self.scene.line_items[k].sceneBoundingRect())
        self.view.centre_on_rect(rect)
        return True

    # -- documents ---------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; True when it is fine to drop the document."""
        if not self.doc.is_modified():
            return True
        held = self.read_only and bool(self.doc.path) and not is_bundled(self.doc.path or "")
        answer = self.prompts.save_changes(self.doc.display_name, read_only=held)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_blank(self) -> None:
        """A blank circuit."""
        if self.maybe_save():
            self._set_document(blank_track(), None)

    def new_from(self, path: str | Path) -> bool:
        """A new, unsaved circuit copied from a bundled (or any) track file."""
        track = self._accepted(load_for_editing(path), path)
        if track is None or not self.maybe_save():
            return False
        track.name = f"{track.name} (copy)"
        self._set_document(track, None, modified=True)
        return True

    def new_from_track(self, track: Track) -> bool:
        """A new, unsaved circuit copied from ``track`` (a template)."""
        if not self.maybe_save():
            return False
        self._set_document(track.copy(), None, modified=True)
        return True

    def start_folder(self) -> Path:
        """Where file dialogs open: beside the open file, the last folder used, or the
        user's circuits folder."""
        last = self.settings.value("lastFolder", "")
        return start_folder(self.doc.path, str(last) if last else None)

    def _remember_folder(self, path: str | Path) -> None:
        if not is_bundled(path):
            self.settings.setValue("lastFolder", str(Path(path).resolve().parent))

    def open_dialog(self) -> None:
        path = self.prompts.open_path(str(self.start_folder()))
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path, ask: bool = True) -> bool:
        """Open a track file; on failure the problems are shown and nothing changes.

        The file is read before asking about unsaved changes, so a file that
        cannot be opened never costs a question (or the current track).
        """
        result = load_for_editing(path)
        track = self._accepted(result, path)
        if track is None:
            return False
        if ask and not self.maybe_save():
            return False
        # A bundled circuit is never written to (nor locked): Save asks for a file.
        read_only = True if is_bundled(path) else self._claim(str(path))
        if read_only is None:
            return False
        self._set_document(track, str(path), read_only=read_only)
        self._remember_folder(path)
        if result.draft:
            self.issues.set_load_problems(result.problems, "warning")
        self._add_recent(str(path))
        return True

    def _accepted(self, result: LoadResult, path: str | Path) -> Track | None:
        """The track read, or None after showing why the file could not be opened."""
        if result.track is not None:
            return result.track
        self.issues.set_load_problems(result.problems, rejected=str(path))
        self.issues_dock.show()
        self.issues_dock.raise_()
        self.statusBar().showMessage(f"Could not open {path}", 8000)
        self.prompts.problems(
            "Cannot open track",
            f"{Path(path).name} could not be opened; the current track is unchanged.",
            [str(p) for p in result.problems],
        )
        return None

    def _claim(self, path: str) -> bool | None:
        """Lock ``path`` for this editor: False when locked, True to open it read-only,
        None when the user cancels (another editor has it)."""
        owner = self.guard.try_lock(path)
        if owner is None:
            return False
        answer = self.prompts.file_in_use(Path(path).name, owner.describe())
        if answer == "cancel":
            return None
        self.guard.unlock()  # the other editor keeps the lock
        return answer == "read-only"

    def _set_document(
        self, track: Track, path: str | None, modified: bool = False, read_only: bool = False
    ) -> None:
        self.issues.set_load_problems([])
        if path is None or read_only:  # the file left behind is free for other editors
            self.guard.unlock()
        self.read_only = read_only
        self.guard.watch(path)
        self.doc.replace(track, path, modified=modified)
        self.undo_view.setEmptyLabel(f"Opened {Path(path).name}" if path else "New track")
        self.view.fit_to_view()
        self._update_title()

    def close_document(self) -> None:
        """Close the track (asking to save) and start a blank one."""
        self.new_blank()

    def save(self) -> bool:
        """Save to the document's file, asking for one if it has none (or it is read-only)."""
        if not self.doc.path or self.read_only:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        """Save to a file the user picks; an untitled track takes its name from the file."""
        if self.doc.path and self.read_only and not is_bundled(self.doc.path):
            suggested = str(copy_path(Path(self.doc.path)))  # the file is another window's
        elif self.doc.path and not is_bundled(self.doc.path):
            suggested = self.doc.path
        else:
            suggested = f"{suggested_stem(None, self.doc.track.name, self.start_folder())}.yaml"
        path = self.prompts.save_path(suggested)
        if not path:
            return False
        renamed = False
        if (self.doc.track.name or "").strip() in ("", UNTITLED) and _writable(path):
            name = Path(path).stem.replace("-", " ").replace("_", " ").strip().title()
            if name:  # printed on the board, so never "Untitled"; one undo step
                self.doc.undo_stack.push(commands.SetMeta(self.doc, "name", name))
                renamed = True
        if self._save_to(path):
            return True
        if renamed:  # written after all checks passed, yet failed: keep the old name
            self.doc.undo_stack.undo()
        return False

    def _save_to(self, path: str) -> bool:
        if not self._may_write(path):
            return False
        not_kept = self._keep_earlier_save(path)
        try:
            save_track(self.doc.track, path)
        except TracksideError as exc:
            self.prompts.problems("Cannot save track", str(exc), [])
            return False
        except OSError as exc:
            self.prompts.problems("Cannot save track", f"{path}: {exc.strerror or exc}", [])
            return False
        self.read_only = False
        self.guard.watch(path)
        self.doc.mark_saved(path)
        self._remember_folder(path)
        self._add_recent(path)
        self.statusBar().showMessage(f"Saved {path}{not_kept}", 15000 if not_kept else 5000)
        return True

    def _keep_earlier_save(self, path: str) -> str:
        """Keep the version ``path`` holds before it is overwritten (File > Compare With
        Earlier Save); a failure never stops the save: it is said after it."""
        try:
            self.earlier_saves.keep_previous(path, self.doc.track.to_yaml())
        except OSError as exc:
            where = self.earlier_saves.directory
            return f" (the version it replaced could not be kept in {where}: {exc.strerror or exc})"
        return ""

    def _may_write(self, path: str) -> bool:
        """Ask before overwriting another program's change; never write into a file
        another editor holds."""
        same = self.guard.path == os.path.realpath(path)
        if same and self.guard.changed_since_known():
            text = difference(path, self.doc.track.to_yaml())
            if self.prompts.overwrite_changed(Path(path).name, text) != "overwrite":
                return False
        if same and self.guard.locked:
            return True
        owner = self.guard.try_lock(path)
        if owner is not None:
            self.prompts.problems(
                "Cannot save track",
                f"{Path(path).name} is open in {owner.describe()}.",
                ["Close it there first, or save under another name."],
            )
            return False
        return True

    # -- the file on disk ---------------------------------------------------------
    def _on_disk_changed(self, path: str) -> None:
        """Another program wrote the open file: reload, or ask when there are edits."""
        if self._asking_disk or not self.doc.path:
            return
        name = Path(path).name
        if self.doc.is_modified():
            self._asking_disk = True
            try:
                answer = self.prompts.changed_on_disk(
                    name, difference(path, self.doc.track.to_yaml())
                )
            finally:
                self._asking_disk = False
            if answer != "reload":
                self.guard.accept_disk()
                # No state of the undo history matches the disk any more: stay unsaved.
                self.doc.mark_modified()
                self.statusBar().showMessage(f"Kept your version of {name}", 8000)
                return
        track = self._accepted(load_for_editing(self.doc.path), self.doc.path)
        if track is None:
            self.guard.accept_disk()
            self.doc.mark_modified()  # what is on disk is broken: ours is the copy to save
            return
        self._set_document(track, self.doc.path, read_only=self.read_only)
        self.statusBar().showMessage(f"Reloaded {name}: another program changed it", 8000)

    def _on_disk_removed(self, path: str) -> None:
        self.doc.mark_modified()
        self.statusBar().showMessage(
            f"{Path(path).name} was deleted or moved on disk; Save writes it again", 15000
        )

    def _show_autosave_failure(self, reason: str) -> None:
        self.autosave_label.setText("Autosave failed: retrying")
        self.autosave_label.setToolTip(
            f"Could not write the autosave to {self.autosave.directory}: {reason}.\n"
            "Trackside tries again every few seconds; save your work to be safe."
        )
        self.autosave_label.show()

    def export(self, kind: str, paper: str | None = None) -> bool:
        """Export the board as on paper (the same as ``trackside render``)."""
        stem = suggested_stem(self.doc.path, self.doc.track.name, self.start_folder())
        suffix = f"-{paper}" if paper else ""
        path = self.prompts.export_path(f"{stem}{suffix}.{kind}", kind)
        if not path:
            return False
        done = export_board(
            self.doc,
            path,
            paper,
            self.prompts,
            show_racing_line=self.scene.racing_line.isVisible(),
        )
        if done is None:
            return False
        pages = f", {done.pages} pages" if done.pages > 1 else ""
        self.statusBar().showMessage(f"Exported {path}{pages}", 8000)
        return True

    def check_recovery(self) -> bool:
        """Offer to recover what a crashed session autosaved; True when recovered."""
        entries = leftover_autosaves(self.autosave.directory)
        if not entries:
            return False
        answer = self.prompts.recovery(entries)
        if answer == "discard":
            for e in entries:
                e.discard()
            return False
        if answer != "recover":
            return False
        entry = entries[0]
        track = self._accepted(load_for_editing(entry.track_file), entry.track_file)
        if track is None:
            return False
        held = bool(entry.original) and self.guard.try_lock(str(entry.original)) is not None
        self._set_document(track, entry.original, modified=True, read_only=held)
        entry.discard()
        self.autosave.save_now()
        self.statusBar().showMessage("Recovered the autosaved track; save it to keep it", 8000)
        return True

    # -- recent files and title ------------------------------------------------------
    def recent_files(self) -> list[str]:
        """Recently opened or saved files, newest first."""
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            return [value]
        if isinstance(value, list | tuple):
            return [str(v) for v in value]
        return []

    def _add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        files = [path] + [f for f in self.recent_files() if f != path]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        missing = [f for f in files if not Path(f).is_file()]
        if missing:  # moved or deleted since: drop them, and say which
            files = [f for f in files if f not in missing]
            self.settings.setValue("recentFiles", files)
            self.statusBar().showMessage(
                f"Open Recent: removed {plural(len(missing), 'file')} no longer there: "
                + ", ".join(Path(f).name for f in missing),
                10000,
            )
        for n, f in enumerate(files, 1):
            act = self.recent_menu.addAction(f"&{n} {Path(f).name}  —  {Path(f).parent}")
            act.triggered.connect(lambda _c=False, p=f: self.open_file(p))
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear List").triggered.connect(
                lambda: self.settings.setValue("recentFiles", [])
            )

    def _update_title(self, *_args) -> None:
        mode = " (read-only)" if self.read_only else ""
        self.setWindowTitle(f"{self.doc.display_name}{mode}[*] — {APP_NAME}")
        self.setWindowModified(self.doc.is_modified())

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.autosave.discard()
        self.guard.release()
        self.balance_panel.wait()
        self.scene.surface.wait()
        self.issues.wait()
        event.accept()


def scrolled(panel: QWidget) -> QScrollArea:
    """``panel`` in a scroll area, for a dock: on a small screen (or at 200 %) the
    window still fits and the panel scrolls, rather than the panel setting the
    window's least height."""
    room = QScrollArea()
    room.setWidget(panel)
    room.setWidgetResizable(True)
    room.setFrameShape(QScrollArea.Shape.NoFrame)
    return room


def _writable(path: str) -> bool:
    """True when a file can be written at ``path`` (checked before anything changes)."""
    try:
        check_writable(path)
    except TracksideError:
        return False
    return True
