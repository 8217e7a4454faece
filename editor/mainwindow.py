"""The main window: canvas, tool bar, panels and menus, put together around one document."""

from __future__ import annotations

import platform
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TypeVar

import PySide6
from PySide6.QtCore import QByteArray, QPointF, QRectF, QSettings, Qt, qVersion
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QStyle,
    QTabBar,
    QToolBar,
    QToolButton,
    QUndoView,
    QWidget,
)

from trackside import __version__
from trackside.editor.canvas.scene import TrackScene
from trackside.editor.canvas.view import CanvasView
from trackside.editor.document import commands
from trackside.editor.document.autosave import RETRY_MS
from trackside.editor.document.earlier_saves import versions_of
from trackside.editor.document.files import suggested_stem
from trackside.editor.document.life_cycle import LifeCycle
from trackside.editor.document.track_document import TrackDocument
from trackside.editor.menus.actions import make_action
from trackside.editor.menus.background import BackgroundActions
from trackside.editor.menus.balance import BalanceMenu
from trackside.editor.menus.printing import PrintMenu
from trackside.editor.menus.track import TrackMenu
from trackside.editor.menus.transform import TransformActions
from trackside.editor.panels.balance import BalancePanel
from trackside.editor.panels.compare import ComparePanel
from trackside.editor.panels.export import NOTHING_EXPORTED, ExportDialog, export_board
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
from trackside.editor.widgets.dock_action import dock_view_action
from trackside.editor.widgets.elided_label import ElidedLabel
from trackside.engine.resources import bundled_tracks
from trackside.engine.text import listed, plural, title_from_file
from trackside.engine.track.model import Track

APP_NAME = "Trackside"
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
        self.life = LifeCycle(
            self.doc,
            self.prompts,
            self.settings,
            autosave_dir,
            autosave_ms,
            earlier_saves_dir,
            parent=self,
        )
        self.autosave = self.life.autosave
        self.earlier_saves = self.life.earlier_saves
        self.guard = self.life.guard
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
        self.life.said.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        self._said_at = self.doc.undo_stack.index()  # the undo step last looked at
        self.doc.undo_stack.indexChanged.connect(self._say_what_moved)
        self.life.loadProblems.connect(self._show_load_problems)
        self.life.documentSet.connect(self._document_set)
        self.life.readOnlyChanged.connect(self._update_title)
        self.autosave.failed.connect(self._show_autosave_failure)
        self.autosave.recovered.connect(self.autosave_label.hide)
        self.issues.reportReady.connect(self._show_counts)
        self.issues.reportReady.connect(
            lambda errors, _warnings: self.balance_panel.set_errors(errors)
        )
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
        self.tabifyDockWidget(self.inspector_dock, self.compare_dock)
        self.compare_dock.hide()
        self.inspector_dock.raise_()
        # Wide enough for the Lanes table's six columns, kept-lane choices whole, and
        # the Balance panel's tables of five columns with money in them ("$3.5M").
        self.resizeDocks([self.inspector_dock], [440], Qt.Orientation.Horizontal)
        # The issues list gets room for a dozen rows, not three; the docks above it (the
        # Balance panel's buttons, status and hints after a run) the rest.
        self.resizeDocks(
            [self.inspector_dock, self.issues_dock], [580, 260], Qt.Orientation.Vertical
        )

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower() + "Dock")
        dock.setWidget(widget)
        dock.visibilityChanged.connect(lambda visible, d=dock: self._dock_visibility(d, visible))
        # Esc clears the outline of spaces shown (by Create, a hint, a fix) and a fix's
        # preview with the focus in a panel too, not only on the canvas, whose Esc also
        # cancels the tool's gesture.
        escape = QShortcut(
            QKeySequence(Qt.Key.Key_Escape),
            dock,
            context=Qt.ShortcutContext.WidgetWithChildrenShortcut,
        )
        escape.activated.connect(self.scene.clear_shown)
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
        # The label's own rule: its tip keeps the tip's colours.
        self.autosave_label.setStyleSheet("QLabel { color: #ff6b6b; font-weight: bold }")
        self.autosave_label.hide()
        # A step's message, shortened with '…' before the counters (the whole of it in
        # its tooltip): the bar's own drawing of it was cut mid-letter. It takes the
        # hint's room while it lasts; the bar's own drawing gets none (its area ends
        # where this label begins).
        self.message_label = ElidedLabel()
        self.message_label.setAutoFillBackground(True)
        self.message_label.hide()
        bar.messageChanged.connect(self._show_message)
        bar.addWidget(self.hint_label, 1)
        bar.addPermanentWidget(self.message_label, 1)
        bar.addPermanentWidget(self.autosave_label)
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.space_label)
        bar.addPermanentWidget(self.cursor_label)
        bar.addPermanentWidget(self.zoom_label)

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        a = partial(make_action, self)
        self.act_new = a("&New", self.new_blank, K.New, "Start a blank circuit")
        self.act_open = a("&Open…", self.life.open_dialog, K.Open, "Open a track file")
        self.act_save = a("&Save", self.save, K.Save, "Save the track (atomic)")
        self.act_save_as = a("Save &As…", self.save_as, K.SaveAs, "Save the track to another file")
        self.act_close = a(
            "&Close", self.life.close_document, K.Close, "Close the track (keeps the window)"
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
            # Shift and a letter, as the other view toggles that are keys alone: "%"
            # (Inkscape's key) read as a stray sign in the menu and had no key of its own.
            "Shift+S",
            "Snap to grid, corners, edges and racing line (hold Ctrl to suspend)",
            named_tip=True,
            checkable=True,
            checked=True,
        )
        group = QActionGroup(self)
        group.setExclusive(True)
        for cls in TOOLS:
            tool = cls(self.scene)
            tool.hintChanged.connect(self.hint_label.setText)
            tool.stepDone.connect(self._say_step)
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
            act = self.bundled_menu.addAction(title_from_file(path))
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
        m.addAction(self.balance_menu.act_heatmap)
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
            m.addAction(dock_view_action(dock))
        m = bar.addMenu("&Tools")
        m.addActions(list(self.tool_actions.values()))
        m.addSeparator()
        m.addActions(self.balance_menu.run_actions)
        self._fill_recent()

    def _build_play(self) -> None:
        """Play mode: its board view takes turns with the canvas; its menu goes after Tools."""
        self.play = PlayMode(self)
        self.play.switched.connect(self._status_for_play)
        self.play_menu = self.menuBar().addMenu("&Play")
        for action in self.play.menu_actions():
            if action is None:
                self.play_menu.addSeparator()
            else:
                self.play_menu.addAction(action)

    def _build_help_menu(self) -> None:
        """Help, last in the menu bar (after Play)."""
        self.act_about = make_action(
            self,
            "&About Trackside",
            self.show_about,
            None,
            "Version, licence and the libraries in use",
        )
        self.act_about.setMenuRole(QAction.MenuRole.AboutRole)
        self.act_shortcuts = make_action(
            self,
            "&Keyboard Shortcuts",
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
        """Help > Keyboard Shortcuts"""
        ShortcutsDialog(self.menuBar(), self).exec()
        self.focus_canvas()

    def _status_for_play(self, playing: bool) -> None:
        """The editing tool's hint, the issue counts, the pointer and the zoom are
        put away in play mode (the game says its own in their place)."""
        for label in (
            self.hint_label,
            self.counts_label,
            self.space_label,
            self.cursor_label,
            self.zoom_label,
        ):
            label.setVisible(not playing)

    def _show_message(self, text: str) -> None:
        self.message_label.setText(text)
        self.message_label.setVisible(bool(text))

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
        """The Balance panel in its dock, and its actions and drawings on the canvas."""
        self.balance_panel = BalancePanel(self.doc)
        self.balance_dock = self._dock(
            "Balance", scrolled(self.balance_panel), Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.tabifyDockWidget(self.inspector_dock, self.balance_dock)
        self.inspector_dock.raise_()
        self.balance_menu = BalanceMenu(self)

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
        """The export dialog for the open track, not yet shown; whether an export printed
        the grass is kept for the next print and export (File > Print the Grass)."""
        dialog = ExportDialog(
            self,
            self.doc,
            self.prompts,
            lambda text: self.statusBar().showMessage(text, 8000),
            paper,
            self.scene.racing_line.isVisible(),
            self.print_menu.grass,
        )
        dialog.accepted.connect(
            lambda: self.print_menu.act_grass.setChecked(dialog.show_grass.isChecked())
        )
        return dialog

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
        if not self.issues.checked:  # no count before this track's first check
            self.counts_label.setText("<span style='color:#8a93a0'>● … ▲ …</span>")
        else:
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
            self.say(f"Deleted {what} ({self._undo_key()} brings {them} back)")

    def _say_step(self, said: str) -> None:
        """Say what a tool's step did, and the key that takes it back."""
        self.say(f"{said} ({self._undo_key()} takes it back)")

    def _undo_key(self) -> str:
        """Undo's key as the menu shows it ("Ctrl+Z")."""
        return self.act_undo.shortcut().toString(QKeySequence.SequenceFormat.NativeText)

    def _redo_key(self) -> str:
        """Redo's first key as the menu shows it ("Ctrl+Shift+Z")."""
        return self.act_redo.shortcut().toString(QKeySequence.SequenceFormat.NativeText)

    def _say_what_moved(self, index: int) -> None:
        """A line or the start grid moved, whoever moved it (a tool, a menu, the
        Inspector, a redo): say how far in the status bar; an undo of such a move
        says it is undone."""
        stack, was = self.doc.undo_stack, self._said_at
        self._said_at = index
        moves = commands.SetLine | commands.SetGrid
        if index == was + 1 and isinstance(done := stack.command(index - 1), moves):
            if said := done.said():
                self._say_step(said)
        elif index == was - 1 and isinstance(undone := stack.command(index), moves):
            self.say(f"{undone.unsaid()} ({self._redo_key()} makes the move again)")

    def duplicate_selection(self) -> None:
        """Copy the selected spaces, offset by 10 mm, and select the copies."""
        try:
            new = commands.duplicate_spaces(self.doc, self.scene.selected_indices())
        except commands.Refused as exc:
            self.say(f"Not duplicated: {exc}")
            return
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

    def point_to_spaces(self, space_ids: Iterable[str]) -> None:
        """Outline the spaces a hint is about (every one) and centre the view on them,
        without selecting them: what the tools act on stays as the designer chose."""
        ids = list(space_ids)
        if self.show_spaces(ids, select=False):
            what = f"Space {ids[0]} is" if len(ids) == 1 else f"Spaces {listed(ids)} are"
            one = "it" if len(ids) == 1 else "one"
            self.statusBar().showMessage(
                f"{what} outlined, not selected (click {one} to select it; Esc clears the outline)",
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

    # -- documents: the life cycle lives in editor/document/life_cycle.py -------------
    def new_blank(self) -> None:
        """A blank circuit (after asking about unsaved changes)."""
        self.life.new_blank()

    def new_from(self, path: str | Path) -> bool:
        """A new, unsaved circuit copied from a bundled (or any) track file."""
        return self.life.new_from(path)

    def new_file(self, path: str | Path) -> None:
        """A blank circuit for a file not yet on disk, which Save writes."""
        self.life.new_file(path)

    def new_from_track(self, track: Track) -> bool:
        """A new, unsaved circuit copied from ``track`` (a template)."""
        return self.life.new_from_track(track)

    def open_file(self, path: str | Path, ask: bool = True) -> bool:
        """Open a track file; on failure the problems are shown and nothing changes."""
        return self.life.open_file(path, ask)

    def save(self) -> bool:
        """Save to the document's file, asking for one if it has none (or it is read-only)."""
        return self.life.save()

    def save_as(self) -> bool:
        """Save to a file the user picks."""
        return self.life.save_as()

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; True when it is fine to drop the document."""
        return self.life.maybe_save()

    def check_recovery(self) -> bool:
        """Offer to recover what a crashed session autosaved; True when recovered."""
        return self.life.check_recovery()

    def start_folder(self) -> Path:
        """Where file dialogs open."""
        return self.life.start_folder()

    def recent_files(self) -> list[str]:
        """Recently opened or saved files, newest first."""
        return self.life.recent_files()

    @property
    def read_only(self) -> bool:
        """True when Save may not write the document's file (Save asks for another)."""
        return self.life.read_only

    def _show_load_problems(self, problems: list, severity: str, rejected: str) -> None:
        self.issues.set_load_problems(problems, severity, rejected or None)
        if rejected:
            self.issues_dock.show()
            self.issues_dock.raise_()

    def _document_set(self, path: str) -> None:
        if not path:
            self.undo_view.setEmptyLabel("New track")
        elif self.life.is_new_file():
            self.undo_view.setEmptyLabel(f"New file {Path(path).name}")
        else:
            self.undo_view.setEmptyLabel(f"Opened {Path(path).name}")
        self.view.fit_to_view()
        self._update_title()

    def _show_autosave_failure(self, reason: str) -> None:
        self.autosave_label.setText("Autosave failed: retrying")
        self.autosave_label.setToolTip(
            f"Could not write the autosave to {self.autosave.directory}: {reason}.\n"
            f"Trackside tries again every {RETRY_MS // 1000} seconds, and this stays until "
            "an autosave is written; save your work to be safe."
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
            grass=self.print_menu.grass,
        )
        if done is None:
            self.statusBar().showMessage(NOTHING_EXPORTED, 8000)
            return False
        pages = f", {done.pages} pages" if done.pages > 1 else ""
        self.statusBar().showMessage(f"Exported {path}{pages}", 8000)
        return True

    # -- recent files and title ------------------------------------------------------
    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        missing = self.life.forget_missing_recent()
        if missing:  # moved or deleted since: dropped; say which
            self.statusBar().showMessage(
                f"Open Recent: removed {plural(len(missing), 'file')} no longer there: "
                + ", ".join(Path(f).name for f in missing),
                10000,
            )
        files = self.life.recent_files()
        for n, f in enumerate(files, 1):
            act = self.recent_menu.addAction(f"&{n} {Path(f).name}  —  {Path(f).parent}")
            act.triggered.connect(lambda _c=False, p=f: self.open_file(p))
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear List").triggered.connect(self.life.clear_recent)

    def _update_title(self, *_args) -> None:
        if self.read_only:
            mode = " (read-only)"
        elif self.life.held_elsewhere:
            mode = " (open in another window: cannot save)"
        elif self.life.is_new_file():
            mode = " (new file)"
        else:
            mode = ""
        self.setWindowTitle(f"{self.doc.display_name}{mode}[*] — {APP_NAME}")
        self.setWindowModified(self.doc.is_modified())

    def closeEvent(self, event: QCloseEvent) -> None:
        # The game first: staying in it keeps the window open before any file question.
        with self.play.ending("closing the window") as agreed:
            if not agreed or not self.life.close():
                event.ignore()  # the game, held while asked, goes on
                return
            self.play.stop()
        self.settings.setValue("geometry", self.saveGeometry())
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
