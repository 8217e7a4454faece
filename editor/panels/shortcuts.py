"""Help > Keyboard Shortcuts: every shortcut of the window, menu by menu, read from its actions.

The list is built from the menus themselves, so it can never disagree with
what the keys do.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QMenuBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.widgets.tree_items import children, top_level_items

# Keys that no menu shows: what they do on the canvas.
CANVAS_KEYS = [
    ("Arrow keys", "Nudge the selection 1 mm (Shift: 10 mm)"),
    (
        "Escape",
        "Cancel what the tool is doing (Select tool: then clear the selection); clear the "
        "outline of spaces shown and a fix's preview, from the canvas or a panel",
    ),
    ("Ctrl + drag", "Move without snapping"),
    ("Shift + click", "Add to the selection"),
    ("Ctrl + click", "Remove from the selection"),
    ("Right click", "Cut, Copy, Paste Here, Duplicate, Delete, Transform (Select tool)"),
    ("Mouse wheel", "Zoom about the pointer"),
    ("Middle drag / Space + drag", "Pan the view"),
    (
        "Right-click a space",
        "Set Lap Start Here, or a betting or finish line across the track there",
    ),
    ("Drag the lap start marker", "Move the lap start (Select tool)"),
    ("Click a space (line tools)", "Put the line across the track at its nearest edge"),
    ("Shift + drag (line tools)", "A new line, even from an end of the old one"),
    ("N (Lanes tool)", "After Create or Re-apply: start another layout"),
]

# Keys of the board view while a game is played.
PLAY_KEYS = [
    ("Take back your last decision and the bots' replies (Take Back)", "Ctrl+Z"),
]


def shortcut_rows(menu_bar: QMenuBar) -> list[tuple[str, list[tuple[str, str]]]]:
    """(menu title, [(action, keys)]) for every menu action that has a shortcut."""
    rows = []
    for action in menu_bar.actions():
        menu = action.menu()
        if isinstance(menu, QMenu):
            found = _menu_shortcuts(menu)
            if found:
                rows.append((action.text().replace("&", ""), found))
    return rows


def _menu_shortcuts(menu: QMenu, prefix: str = "") -> list[tuple[str, str]]:
    found = []
    for action in menu.actions():
        sub = action.menu()
        if isinstance(sub, QMenu):
            found += _menu_shortcuts(sub, prefix + action.text().replace("&", "") + " > ")
            continue
        keys = _keys(action)
        if keys:
            found.append((prefix + action.text().replace("&", "").rstrip("…"), keys))
    return found


# Keys most keyboards lack: F13 to F35, and Qt's media and launcher keys (Back, Save, Exit...).
RARE_KEYS = (range(0x0100003C, 0x01000053), range(0x01000061, 0x01030000))


def _keys(action: QAction) -> str:
    return ", ".join(
        s.toString(QKeySequence.SequenceFormat.NativeText)
        for s in action.shortcuts()
        if not s.isEmpty() and not _rare(s)
    )


def _rare(sequence: QKeySequence) -> bool:
    key = sequence[0].key().value  # type: ignore[index]  # the stubs omit __getitem__
    return any(key in keys for keys in RARE_KEYS)


class ShortcutsDialog(QDialog):
    """A searchable list of the window's shortcuts."""

    def __init__(self, menu_bar: QMenuBar, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.resize(520, 620)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Type to filter, e.g. zoom or Ctrl+S")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Command", "Keys"])
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setStretchLastSection(False)
        groups = [*shortcut_rows(menu_bar), ("Canvas", CANVAS_KEYS), ("Playing", PLAY_KEYS)]
        for title, entries in groups:
            group = QTreeWidgetItem([title])
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            for name, keys in entries:
                group.addChild(QTreeWidgetItem([name, keys]))
            self.tree.addTopLevelItem(group)
            group.setExpanded(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)

    def entries(self) -> list[tuple[str, str]]:
        """(command, keys) of every row shown."""
        return [
            (child.text(0), child.text(1))
            for group in top_level_items(self.tree)
            for child in children(group)
            if not child.isHidden()
        ]

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        for group in top_level_items(self.tree):
            shown = 0
            for child in children(group):
                hit = not needle or needle in f"{child.text(0)} {child.text(1)}".lower()
                child.setHidden(not hit)
                shown += hit
            group.setHidden(shown == 0)
