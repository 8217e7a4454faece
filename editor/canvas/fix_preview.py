"""A fix's preview on the canvas: what a fix the Balance panel lists would change,
drawn over the board without changing it.

It compares the circuit as it is with the circuit the fix makes
(``engine/track/diff.py``) and draws, in a pink no mark of the board uses: each
line the fix moves dashed at its new place, beside the line as it is, with an
arrow from the one to the other and a tag ("Finish (fix 1)", "Bet 2 (fix 1)");
a grid moved back as its new slots outlined and numbered on badges in their corners, and
the lap start it moves as a dashed bar; the spaces a lane fix adds outlined, those it moves
outlined dashed at their new place, and those it removes greyed and crossed. Its tags and
numbers keep clear of the labels the board prints (grid numbers, betting line badges)
and of the lap start's tag, at the zoom shown. It takes no clicks: nothing of it can be
selected or edited.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from trackside.editor.canvas.compare_overlay import polygon
from trackside.editor.canvas.items import Z_OVERLAY, BoundedItem, NameTag, arrow_polygon
from trackside.editor.canvas.lap_start import bar_ends, lap_start_place
from trackside.editor.canvas.painting import badge_boxes, draw_text, space_text_box
from trackside.engine.track.diff import diff_tracks
from trackside.engine.track.geometry import FINISH
from trackside.engine.track.model import Point, Segment, Track

PREVIEW = QColor("#ff4fd8")  # pink: no line, slot, selection or other overlay uses it
TAG = PREVIEW.darker(150)
UNDER = QColor(20, 20, 20, 170)  # under the dashes, so they read on tarmac and on lines
GONE = QColor(30, 30, 30, 170)  # a space the fix removes, greyed
MARGIN_MM = 6.0
CLEAR_PX = 2.0  # the least room between a tag and a label it keeps clear of
STEPS_OUT = 4  # how many times a tag may step one tag further out to find a clear place

Away = tuple[float, float]  # a unit vector: which way a tag lies from its place


def line_tag(k: int) -> str:
    """A line's name on its tag: "Finish", or "Bet 1" to "Bet 3"."""
    return "Finish" if k == FINISH else f"Bet {k + 1}"


def _mid(segment: Segment) -> QPointF:
    (ax, ay), (bx, by) = segment
    return QPointF((float(ax) + float(bx)) / 2, (float(ay) + float(by)) / 2)


def _pen(colour: QColor, width: float, dashed: bool = False) -> QPen:
    """A pen as wide in screen pixels at any zoom (the preview reads at any zoom)."""
    pen = QPen(colour, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen


class FixPreviewItem(BoundedItem):
    """What one fix would change, over the board; hidden while no fix is previewed."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_OVERLAY - 4)  # over the lines and the heat map, under tool overlays
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setVisible(False)
        self.lines: dict[int, tuple[Segment, Segment]] = {}  # line -> (as it is, moved)
        self.slots: list[list[Point]] = []  # the new grid's spaces, pole first
        self.lap_start: tuple[Point, Point] | None = None  # the new lap start's bar
        self.added: list[list[Point]] = []
        self.moved: list[list[Point]] = []  # at their new place
        self.removed: list[list[Point]] = []
        self.tags: list[NameTag] = []
        self.tag_places: list[list[tuple[QPointF, Away]]] = []  # per tag, best first
        self.slot_numbers: list[tuple[QPointF, float]] = []  # badge centre and radius, mm
        self.board_labels: list[QRectF] = []  # what the board prints near it, mm
        self.pixels_per_mm = 1.0

    # -- what it shows ---------------------------------------------------------------
    def show_change(
        self, before: Track, after: Track, fix: str, pixels_per_mm: float = 1.0
    ) -> None:
        """Draw what changes from ``before`` (the circuit as it is) to ``after``, each tag
        naming ``fix`` ("fix 1"), its tags laid out clear of the board's labels at the zoom
        ``pixels_per_mm``."""
        self.clear()
        diff = diff_tracks(before, after)
        old_lines = [*before.betting_lines, before.finish_line]
        new_lines = [*after.betting_lines, after.finish_line]
        self.lines = {k: (old_lines[k], new_lines[k]) for k in diff.lines}
        spaces_now = {sp.id: sp.corners for sp in after.spaces}
        spaces_was = {sp.id: sp.corners for sp in before.spaces}
        slot_ids = [s for s in after.start_grid if s in spaces_now] if diff.grid else []
        self.slots = [spaces_now[s] for s in slot_ids]
        place, was = lap_start_place(after), lap_start_place(before)
        if diff.racing_line and place is not None and (was is None or place[0] != was[0]):
            self.lap_start = bar_ends(after, place[0], place[2])
        self.added = [spaces_now[s] for s in diff.added]
        self.moved = [spaces_now[s] for s in dict.fromkeys(diff.moved + diff.changed)]
        self.removed = [spaces_was[s] for s in diff.removed]
        self.board_labels = _board_labels(before)
        self.slot_numbers = _slot_numbers(before, self.slots, slot_ids)
        self.board_labels += [_badge_box(at, radius) for at, radius in self.slot_numbers]
        self._tag_all(fix, len(diff.added), len(diff.moved), len(diff.removed))
        self.fit_tags(pixels_per_mm)
        self.set_bounds(self.extent())
        self.setVisible(True)

    def fit_tags(self, pixels_per_mm: float) -> None:
        """Lay the tags out for the zoom ``pixels_per_mm``: each at the first of its
        places, stepping further out if need be, where it covers no label printed on the
        board, no other tag in the scene (the lap start's) and no tag laid out before it."""
        self.pixels_per_mm = s = pixels_per_mm
        taken = [
            QRectF(b.x() * s, b.y() * s, b.width() * s, b.height() * s) for b in self.board_labels
        ]
        taken += [
            item.boundingRect().translated(item.scenePos() * s)
            for item in (self.scene().items() if self.scene() is not None else [])
            if isinstance(item, NameTag) and item.parentItem() is not self and item.isVisible()
        ]
        for tag, places in zip(self.tags, self.tag_places, strict=True):
            place, rect = _clear_place(tag, places, taken, s)
            tag.setPos(place[0])
            tag.set_away(place[1], rect[1])
            taken.append(rect[0])

    def clear(self) -> None:
        """Draw nothing."""
        for tag in self.tags:
            if tag.scene() is not None:
                tag.scene().removeItem(tag)
            else:  # Qt detaches an item given no parent; PySide6's stubs leave None out
                tag.setParentItem(None)  # type: ignore[arg-type]
        self.tags, self.tag_places = [], []
        self.slot_numbers, self.board_labels = [], []
        self.lines, self.slots, self.lap_start = {}, [], None
        self.added, self.moved, self.removed = [], [], []
        self.set_bounds(QRectF())
        self.setVisible(False)

    @property
    def showing(self) -> bool:
        """True while a fix is previewed."""
        return self.isVisible() and not self._bounds.isEmpty()

    def tag_texts(self) -> list[str]:
        """The words of the tags shown, in the order they were made."""
        return [tag.text for tag in self.tags]

    def extent(self) -> QRectF:
        """What the preview covers on the board (mm), without its tags."""
        rect = QRectF()
        for shape in self._shapes():
            rect = rect.united(shape.boundingRect())
        return (
            rect.adjusted(-MARGIN_MM, -MARGIN_MM, MARGIN_MM, MARGIN_MM) if rect.isValid() else rect
        )

    def _shapes(self) -> Iterator[QPolygonF]:
        for old, new in self.lines.values():
            yield polygon([*old, *new])
        if self.lap_start is not None:
            yield polygon(list(self.lap_start))
        for corners in (*self.slots, *self.added, *self.moved, *self.removed):
            yield polygon(corners)

    def _tag_all(self, fix: str, added: int, moved: int, removed: int) -> None:
        for k, (_old, new) in self.lines.items():
            ends = (_point(new[0]), _point(new[1]))
            self._tag(
                f"{line_tag(k)} ({fix})",
                [(ends[0], _away(new[0], new[1])), (ends[1], _away(new[1], new[0]))],
            )
        if self.slots:
            self._tag(f"Grid ({fix})", _around(self.slots))
        if self.lap_start is not None:
            inner, outer = self.lap_start
            self._tag(
                f"Lap start ({fix})",
                [(_point(outer), _away(outer, inner)), (_point(inner), _away(inner, outer))],
            )
        counts = [(added, "added"), (moved, "moved"), (removed, "removed")]
        said = [f"{n} {what}" for n, what in counts if n]
        if said:
            self._tag(
                f"Spaces: {', '.join(said)} ({fix})",
                _around(self.added or self.moved or self.removed),
            )

    def _tag(self, text: str, places: list[tuple[QPointF, Away]]) -> None:
        """A tag for ``text``, at the first of ``places`` (its place and which way it lies
        from it) that ``fit_tags`` finds clear."""
        tag = NameTag(text, TAG, self, places[0][1])
        tag.setPos(places[0][0])
        self.tags.append(tag)
        self.tag_places.append(places)

    # -- painting --------------------------------------------------------------------
    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for corners in self.removed:
            _removed(painter, polygon(corners))
        fill = QColor(PREVIEW)
        fill.setAlpha(70)
        for corners in self.added:
            painter.setBrush(fill)
            painter.setPen(_pen(PREVIEW, 2.5))
            painter.drawPolygon(polygon(corners))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for corners in (*self.moved, *self.slots):
            _dashed(painter, [polygon(corners)], closed=True)
        for number, (at, radius) in enumerate(self.slot_numbers, 1):
            _slot_badge(painter, number, at, radius)
        if self.lap_start is not None:
            a, b = self.lap_start
            _dashed(painter, [polygon([a, b])], closed=False, width=4.0)
        for old, new in self.lines.values():
            _dashed(painter, [polygon(list(new))], closed=False, width=4.0)
            _arrow(painter, _mid(old), _mid(new))


def _dashed(painter: QPainter, shapes: list[QPolygonF], closed: bool, width: float = 2.5) -> None:
    """Pink dashes over a dark stroke, readable on tarmac, on lines and on the grid."""
    for pen in (_pen(UNDER, width + 2.5), _pen(PREVIEW, width, dashed=True)):
        painter.setPen(pen)
        for shape in shapes:
            if closed:
                painter.drawPolygon(shape)
            else:
                painter.drawPolyline(shape)


def _board_labels(track: Track) -> list[QRectF]:
    """What ``track``'s board prints that a tag must not cover (mm): the grid's numbers
    (with the pole's ring and the ids under them) and the betting lines' badges."""
    spaces = {sp.id: sp for sp in track.spaces}
    boxes = [
        space_text_box(spaces[sid], grid_slot=n, show_id=True)
        for n, sid in enumerate(track.start_grid, 1)
        if sid in spaces
    ]
    boxes += badge_boxes(track.betting_lines)
    return [box for box in boxes if not box.isEmpty()]


def _slot_numbers(
    before: Track, slots: list[list[Point]], slot_ids: list[str]
) -> list[tuple[QPointF, float]]:
    """Where each new grid slot's numbered badge goes (centre, radius in mm): in a corner
    of the slot, clear of what the space prints now (its grid number, the pole's ring,
    its id); every badge of one size, the largest that fits in every slot (a sixth of
    the narrowest slot at most)."""
    spaces = {sp.id: sp for sp in before.spaces}
    now = {sid: n for n, sid in enumerate(before.start_grid, 1)}
    printed = [
        space_text_box(spaces[sid], grid_slot=now.get(sid), show_id=True)
        if sid in spaces
        else QRectF()
        for sid in slot_ids
    ]
    boxes = [polygon(corners).boundingRect() for corners in slots]
    size = min((min(box.width(), box.height()) for box in boxes), default=0.0)
    for radius in (size * 0.17, size * 0.14, size * 0.11):
        places = [_corner_place(c, p, radius) for c, p in zip(slots, printed, strict=True)]
        if all(place is not None for place in places):
            return [(place, radius) for place in places if place is not None]
    radius = size * 0.09  # where it fits nowhere clear: in the top left corner
    return [
        (
            _corner_place(c, p, radius)
            or QPointF(box.left() + 1.6 * radius, box.top() + 1.6 * radius),
            radius,
        )
        for c, p, box in zip(slots, printed, boxes, strict=True)
    ]


def _corner_place(corners: list[Point], printed: QRectF, radius: float) -> QPointF | None:
    """Where a badge of ``radius`` fits inside the space ``corners`` clear of
    ``printed``: near the first corner, from the top left round, where it does; None
    where it fits nowhere."""
    shape = shapely.Polygon([(float(x), float(y)) for x, y in corners])
    if not shape.is_valid or shape.is_empty:
        return None
    centre = shape.centroid
    keep_clear = printed.adjusted(-radius / 3, -radius / 3, radius / 3, radius / 3)
    first = min(range(len(corners)), key=lambda i: float(corners[i][0]) + float(corners[i][1]))
    for i in range(len(corners)):
        cx, cy = (float(c) for c in corners[(first + i) % len(corners)])
        reach = math.hypot(centre.x - cx, centre.y - cy) or 1.0
        for step in (1.5, 2.0, 2.5):  # from the corner inwards, in radii
            t = min(1.0, step * radius / reach)
            at = QPointF(cx + t * (centre.x - cx), cy + t * (centre.y - cy))
            badge = _badge_box(at, radius)
            inside = shape.contains(
                shapely.box(badge.left(), badge.top(), badge.right(), badge.bottom())
            )
            if inside and not badge.intersects(keep_clear):
                return at
    return None


def _badge_box(at: QPointF, radius: float) -> QRectF:
    """What a badge of ``radius`` centred on ``at`` covers (mm)."""
    return QRectF(at.x() - radius, at.y() - radius, 2 * radius, 2 * radius)


def _slot_badge(painter: QPainter, number: int, at: QPointF, radius: float) -> None:
    """A new grid slot's number on a pink disc: a mark of its own, which does not read
    as part of the white number the space may print now."""
    painter.setPen(_pen(UNDER, 1.0))
    painter.setBrush(PREVIEW)
    painter.drawEllipse(at, radius, radius)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    draw_text(painter, str(number), at, radius * 1.1, QColor("#ffffff"), bold=True, halo=TAG)


def _clear_place(
    tag: NameTag, places: list[tuple[QPointF, Away]], taken: list[QRectF], s: float
) -> tuple[tuple[QPointF, Away], tuple[QRectF, float]]:
    """The first of ``places`` (stepping one tag height further out each round) where
    ``tag`` covers none of ``taken`` (pixels at the zoom ``s``), with the rectangle it
    covers there and how far it stepped out; the first place when none is clear."""
    step = tag.boundingRect().height() + NameTag.GAP_PX
    for out in range(STEPS_OUT):
        for at, away in places:
            rect = tag.rect_towards(away, out * step).translated(at * s)
            room = rect.adjusted(-CLEAR_PX, -CLEAR_PX, CLEAR_PX, CLEAR_PX)
            if not any(room.intersects(other) for other in taken):
                return (at, away), (rect, out * step)
    at, away = places[0]
    return (at, away), (tag.rect_towards(away).translated(at * s), 0.0)


def _around(shapes: list[list[Point]]) -> list[tuple[QPointF, Away]]:
    """Places for a tag naming ``shapes``: below them, above them, left, right."""
    rect = QRectF()
    for corners in shapes:
        rect = rect.united(polygon(corners).boundingRect())
    c = rect.center()
    return [
        (QPointF(c.x(), rect.bottom()), (0.0, 1.0)),
        (QPointF(c.x(), rect.top()), (0.0, -1.0)),
        (QPointF(rect.left(), c.y()), (-1.0, 0.0)),
        (QPointF(rect.right(), c.y()), (1.0, 0.0)),
    ]


def _point(p: Point) -> QPointF:
    return QPointF(float(p[0]), float(p[1]))


def _removed(painter: QPainter, shape: QPolygonF) -> None:
    """A space the fix removes: greyed, crossed corner to corner, outlined dashed."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(GONE)
    painter.drawPolygon(shape)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_pen(PREVIEW, 2.0))
    n = shape.count()
    if n >= 4:
        painter.drawLine(shape.at(0), shape.at(n // 2))
        painter.drawLine(shape.at(n // 4), shape.at(n // 4 + n // 2))
    _dashed(painter, [shape], closed=True, width=1.5)


def _arrow(painter: QPainter, a: QPointF, b: QPointF) -> None:
    """From where a line is to where the fix puts it, when they lie apart."""
    length = math.hypot(b.x() - a.x(), b.y() - a.y())
    if length < 2 * MARGIN_MM:
        return
    painter.setPen(_pen(PREVIEW, 1.5))
    painter.drawLine(a, b)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(PREVIEW)
    painter.drawPolygon(arrow_polygon(a, b, min(8.0, length / 3)))
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _away(end: Point, start: Point) -> tuple[float, float]:
    """The unit vector from ``start`` to ``end`` (a tag beyond ``end``, clear of the line)."""
    dx, dy = float(end[0]) - float(start[0]), float(end[1]) - float(start[1])
    norm = math.hypot(dx, dy)
    return (dx / norm, dy / norm) if norm else (0.0, -1.0)
