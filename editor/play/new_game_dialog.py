"""The New game dialog: variant, seats (people with names or bots), seed, circuits."""

from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from trackside.editor.document.files import start_folder
from trackside.editor.play.setup import PERSON, GameSetup, Seat, bot_kinds
from trackside.editor.widgets.boxes import ComboBox, SpinBox
from trackside.engine.errors import TracksideError
from trackside.engine.game import Variant, bundled_variants, load_variant
from trackside.engine.resources import bundled_tracks
from trackside.engine.text import title_from_file
from trackside.engine.track.model import Track, load_track

DEFAULT_NAMES = ["Ana", "Ben", "Chloé", "Dev", "Emma", "Farid"]
MAX_SEATS = 6
EDITED = "<edited>"
# Bundled variants in the order a group meets them; any others follow by name.
VARIANT_ORDER = ["standard", "two-player", "beginner", "long-distance", "world-tour"]
BOT_NOTES = {
    "random": "plays any legal move at random: an easy opponent",
    "greedy": "quick heuristics: bids for value, pushes its own cars, bets on the leader",
    "strong": "searches: tries its cards, powers and bets on sampled deals, a moment a decision",
}


def bot_label(kind: str) -> str:
    """How a bot kind reads in the seat list: 'Greedy bot'."""
    return f"{kind.replace('_', ' ').replace('-', ' ').capitalize()} bot"


def bot_note(kind: str) -> str:
    """A line on what a bot kind does (its class docstring's first line when unknown here)."""
    if kind in BOT_NOTES:
        return BOT_NOTES[kind]
    from trackside.engine.bots import BOT_KINDS

    doc = (getattr(BOT_KINDS.get(kind), "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else bot_label(kind)


def ordered_variants(paths: list[Path]) -> list[Path]:
    """The bundled variant files, the usual ones first (standard leads)."""
    rank = {stem: k for k, stem in enumerate(VARIANT_ORDER)}
    return sorted(paths, key=lambda p: (rank.get(p.stem, len(rank)), p.stem))


class NewGameDialog(QDialog):
    """Asks for a ``GameSetup``; ``setup()`` reads it once accepted.

    ``edited`` is the circuit open in the editor (used for a single race and
    listed first for a world tour).
    """

    def __init__(
        self,
        edited: Track,
        edited_path: str | None,
        parent: QWidget | None = None,
        remembered: dict | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setMinimumWidth(560)
        self.edited, self.edited_path = edited, edited_path
        self.variants: list[tuple[str, Variant]] = []
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.variant_box = ComboBox()
        self.variant_box.currentIndexChanged.connect(self._variant_changed)
        other = QPushButton("Variant file…")
        other.clicked.connect(self._pick_variant_file)
        row = QHBoxLayout()
        row.addWidget(self.variant_box, 1)
        row.addWidget(other)
        form.addRow("Variant", row)
        self.variant_note = QLabel()
        self.variant_note.setWordWrap(True)
        form.addRow("", self.variant_note)
        self.players_box = SpinBox()
        self.players_box.setRange(2, MAX_SEATS)
        self.players_box.valueChanged.connect(self._players_changed)
        form.addRow("Players", self.players_box)
        self.seed_box = SpinBox()
        self.seed_box.setRange(0, 2**31 - 1)
        self.seed_box.setValue(random.randrange(100000))
        reseed = QPushButton("New seed")
        reseed.clicked.connect(lambda: self.seed_box.setValue(random.randrange(100000)))
        row = QHBoxLayout()
        row.addWidget(self.seed_box, 1)
        row.addWidget(reseed)
        form.addRow("Seed (same seed, same deal)", row)
        layout.addLayout(form)
        layout.addWidget(self._build_seats())
        layout.addWidget(self._build_tour())
        self.error = QLabel()
        self.error.setStyleSheet("color: #ff6b6b")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Play")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        for path in ordered_variants(bundled_variants()):
            self._add_variant(str(path))
        self.variant_box.setCurrentIndex(0)
        self.players_box.setValue(4)
        self._players_changed(4)
        if remembered:
            self.restore(remembered)

    # -- parts ----------------------------------------------------------------------
    def _build_seats(self) -> QGroupBox:
        box = QGroupBox("Seats (in playing order)")
        grid = QGridLayout(box)
        self.seat_names: list[QLineEdit] = []
        self.seat_kinds: list[QComboBox] = []
        self.seat_labels: list[QLabel] = []
        kinds = bot_kinds()
        for k in range(MAX_SEATS):
            label = QLabel(f"{k + 1}.")
            name = QLineEdit(DEFAULT_NAMES[k])
            kind = ComboBox()
            kind.addItem("Person", PERSON)
            kind.setItemData(
                0,
                "someone at this screen: their cards are shown only to them",
                Qt.ItemDataRole.ToolTipRole,
            )
            for b in kinds:
                kind.addItem(bot_label(b), b)
                kind.setItemData(kind.count() - 1, bot_note(b), Qt.ItemDataRole.ToolTipRole)
            kind.setCurrentIndex(
                0 if k == 0 else kind.findData("greedy") if "greedy" in kinds else 1
            )
            kind.currentIndexChanged.connect(lambda _i, k=k: self._kind_changed(k))
            grid.addWidget(label, k, 0)
            grid.addWidget(name, k, 1)
            grid.addWidget(kind, k, 2)
            self.seat_labels.append(label)
            self.seat_names.append(name)
            self.seat_kinds.append(kind)
            self._kind_changed(k)
        return box

    def _build_tour(self) -> QGroupBox:
        self.tour_box = QGroupBox("World tour circuits (ticked, in order)")
        v = QVBoxLayout(self.tour_box)
        self.tour_list = QListWidget()
        self.tour_list.setDragDropMode(QListWidget.DragDropMode.InternalMove)
        item = QListWidgetItem(f"{self.edited.name} (being edited)")
        item.setData(Qt.ItemDataRole.UserRole, EDITED)
        item.setCheckState(Qt.CheckState.Checked)
        self.tour_list.addItem(item)
        edited = Path(self.edited_path).resolve() if self.edited_path else None
        others = [p for p in bundled_tracks() if p.resolve() != edited]  # never listed twice
        for k, path in enumerate(others):
            item = QListWidgetItem(title_from_file(path))
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            item.setCheckState(Qt.CheckState.Checked if k == 0 else Qt.CheckState.Unchecked)
            self.tour_list.addItem(item)
        add = QPushButton("Add circuit file…")
        add.clicked.connect(self._pick_track_file)
        note = QLabel("Tick the circuits to race; drag them into the order to race them.")
        note.setWordWrap(True)
        v.addWidget(note)
        v.addWidget(self.tour_list)
        v.addWidget(add)
        return self.tour_box

    # -- reactions ------------------------------------------------------------------
    def _add_variant(self, path: str) -> bool:
        try:
            variant = load_variant(path)
        except TracksideError as exc:
            self.error.setText(f"Cannot use {Path(path).name}: " + "\n".join(exc.lines()))
            return False
        self.variants.append((path, variant))
        self.variant_box.addItem(variant.name, len(self.variants) - 1)
        return True

    def _pick_variant_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Variant file",
            str(start_folder(None, None)),
            "Variant files (*.yaml *.yml);;All files (*)",
        )
        if path and self._add_variant(path):
            self.variant_box.setCurrentIndex(self.variant_box.count() - 1)

    def _pick_track_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Circuit file",
            str(start_folder(None, None)),
            "Track files (*.yaml *.yml);;All files (*)",
        )
        if path:
            item = QListWidgetItem(Path(path).stem)
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setCheckState(Qt.CheckState.Checked)
            self.tour_list.addItem(item)

    @property
    def variant(self) -> Variant:
        return self.variants[self.variant_box.currentData()][1]

    def select_variant(self, name: str) -> None:
        """Choose a listed variant by its name (``Two players``) or file stem."""
        for k, (path, v) in enumerate(self.variants):
            if name in (v.name, Path(path).stem):
                self.variant_box.setCurrentIndex(k)
                return
        raise KeyError(name)

    def _variant_changed(self, _index: int) -> None:
        if self.variant_box.currentData() is None:
            return
        self.error.clear()  # what it said (a variant file that failed, ...) is about before
        v = self.variant
        self.variant_note.setText(v.description)
        self.players_box.setRange(v.min_players, min(MAX_SEATS, v.max_players))
        self.tour_box.setVisible(bool(v.series))
        self._fit()

    def _players_changed(self, n: int) -> None:
        for k in range(MAX_SEATS):
            for w in (self.seat_labels[k], self.seat_names[k], self.seat_kinds[k]):
                w.setVisible(k < n)
        self._fit()

    def _fit(self) -> None:
        """Grow or shrink to the rows shown (no empty band under the seats), once
        the layout has taken the shown and hidden rows into account."""
        QTimer.singleShot(0, self, lambda: self.resize(self.width(), self.sizeHint().height()))

    def _kind_changed(self, k: int) -> None:
        person = self.seat_kinds[k].currentData() == PERSON
        self.seat_names[k].setEnabled(True)
        self.seat_names[k].setPlaceholderText("name" if person else "bot name")

    def set_seat(self, k: int, name: str, kind: str) -> None:
        """Fill seat ``k`` (tests and scripted set-ups)."""
        self.seat_names[k].setText(name)
        self.seat_kinds[k].setCurrentIndex(self.seat_kinds[k].findData(kind))

    def choices(self) -> dict:
        """What to offer next time: variant, players, seat names and kinds (not the seed)."""
        path, _v = self.variants[self.variant_box.currentData()]
        return {
            "variant": path,
            "players": self.players_box.value(),
            "seats": [
                [self.seat_names[k].text(), self.seat_kinds[k].currentData()]
                for k in range(MAX_SEATS)
            ],
        }

    def restore(self, choices: dict) -> None:
        """Fill the dialog from ``choices()`` of an earlier game (skipping what no longer fits)."""
        path = choices.get("variant")
        known = [p for p, _v in self.variants]
        if isinstance(path, str) and (
            path in known or (Path(path).is_file() and self._add_variant(path))
        ):
            self.variant_box.setCurrentIndex(
                self.variant_box.findData([p for p, _v in self.variants].index(path))
            )
        for k, seat in enumerate(choices.get("seats") or []):
            if k < MAX_SEATS and isinstance(seat, list) and len(seat) == 2:
                name, kind = seat
                if self.seat_kinds[k].findData(kind) >= 0:
                    self.set_seat(k, str(name), kind)
        players = choices.get("players")
        if isinstance(players, int):
            self.players_box.setValue(players)  # clamped to the variant's range

    # -- result ---------------------------------------------------------------------
    def tour_tracks(self) -> list[tuple[Track, str | None]]:
        """The ticked circuits, in list order, loaded."""
        out = []
        for k in range(self.tour_list.count()):
            item = self.tour_list.item(k)
            if item.checkState() != Qt.CheckState.Checked:
                continue
            where = item.data(Qt.ItemDataRole.UserRole)
            if where == EDITED:
                out.append((self.edited, self.edited_path))
            else:
                out.append((load_track(where), where))
        return out

    def setup(self) -> GameSetup:
        """The game described by the dialog (raises ``TracksideError`` on a bad file)."""
        path, v = self.variants[self.variant_box.currentData()]
        n = self.players_box.value()
        seats = []
        for k in range(n):
            kind = self.seat_kinds[k].currentData()
            name = self.seat_names[k].text().strip() or (
                DEFAULT_NAMES[k] if kind == PERSON else f"{kind.title()} {k + 1}"
            )
            seats.append(Seat(name, kind))
        pairs = self.tour_tracks() if v.series else [(self.edited, self.edited_path)]
        return GameSetup(
            v, path, seats, self.seed_box.value(), [t for t, _ in pairs], [p for _, p in pairs]
        )

    def _accept(self) -> None:
        names = [self.seat_names[k].text().strip() for k in range(self.players_box.value())]
        if len(set(n for n in names if n)) < len([n for n in names if n]):
            self.error.setText("Two seats have the same name: give everyone a different name")
            return
        try:
            setup = self.setup()
        except TracksideError as exc:
            self.error.setText(str(exc))
            return
        if not setup.tracks:
            self.error.setText("Tick at least one circuit for the world tour")
            return
        self.accept()
