"""What a card would do if it were played now: how far each of its cars would go.

``card_preview(game, card_id)`` plays the card on a copy of ``game`` and reads
what happened from the copy's log; the game itself is not touched. The copy
resolves the rows in printed order without a Strategic skip, and every car takes
its longest move (R-MOVE-4: a car that cannot move its full number goes as far
as it can, and one with no free space ahead stays). A WILD row's car is the card
player's to name (R-RACE-4), so its row tells only that; the copy names a
finished car for it where one may be named (it moves nothing), so that the other
rows are told as they would go.
"""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.game.cards import WILD
from trackside.engine.game.decisions import Decision, Order, Path, PlayCard, Skip, Wild
from trackside.engine.game.game import Game

STEPS_AT_MOST = 64  # a card is a handful of decisions; a guard against a loop


@dataclass(frozen=True)
class RowPreview:
    """One row of a card: its printed colour ("wild" for WILD) and number, and what
    it would do now."""

    colour: str
    spaces: int
    moved: int = 0  # spaces its car would move (0 when it cannot move or has finished)
    finishes: bool = False  # its car would cross the finish line
    finished: bool = False  # its car has finished already: the row moves nothing

    @property
    def wild(self) -> bool:
        """True for a WILD row: the card player names its car."""
        return self.colour == WILD

    @property
    def blocked(self) -> bool:
        """True when the row's car would not move at all: no free space ahead."""
        return not self.wild and not self.finished and self.moved == 0


@dataclass(frozen=True)
class CardPreview:
    """What a card would do if played now, row by row (printed order)."""

    card: int
    rows: tuple[RowPreview, ...]

    @property
    def moves_no_car(self) -> bool:
        """True when none of its printed cars would move and it has no WILD row."""
        return all(not row.wild and row.moved == 0 for row in self.rows)


def card_preview(game: Game, card_id: int) -> CardPreview:
    """What playing ``card_id`` now would do, the card being the due seat's to play."""
    seat = game.pending.players[0]
    card = game.card_of(card_id)
    before = {c: game.position(c) for c, _ in card.rows if c != WILD}
    sim = game.copy(log=True)
    start = len(sim.log)
    sim.apply(PlayCard(seat, card_id))
    for _ in range(STEPS_AT_MOST):
        if sim.state.card is None or sim.over:
            break
        due = sim.due()[0]
        sim.apply(_choice(sim, sim.options(due)))
    moved: dict[str, int] = {}
    finishing: set[str] = set()
    for event in sim.log[start:]:
        if event.kind in ("move", "finish"):
            car = str(event.data["car"])
            moved[car] = moved.get(car, 0) + len(event.data["path"])
            if event.kind == "finish":
                finishing.add(car)
    rows = tuple(
        RowPreview(colour, n)
        if colour == WILD
        else RowPreview(
            colour,
            n,
            moved.get(colour, 0),
            colour in finishing,
            before[colour] is None,
        )
        for colour, n in card.rows
    )
    return CardPreview(card_id, rows)


def _choice(sim: Game, options: list[Decision]) -> Decision:
    """The copy's answer: printed order, no skip, for WILD a finished car where one
    may be named (else a car not printed on the card), the longest move."""
    first = options[0]
    if isinstance(first, Order):
        return min(options, key=lambda o: o.rows if isinstance(o, Order) else ())
    if isinstance(first, Skip):
        return next((o for o in options if isinstance(o, Skip) and o.row is None), first)
    if isinstance(first, Wild):
        assert sim.state.card is not None  # a card is being resolved
        printed = {c for c, _ in sim.card_of(sim.state.card).rows}
        named = [o for o in options if isinstance(o, Wild)]
        done = {c for o in named for c in o.colours if sim.position(c) is None}
        quiet = [o for o in named if set(o.colours) <= done]
        apart = [o for o in named if not set(o.colours) & printed]  # Unpredictable may
        return (quiet or apart or [first])[0]
    if isinstance(first, Path):
        return max(options, key=lambda o: len(o.path) if isinstance(o, Path) else 0)
    return first


def preview_words(preview: CardPreview, own: set[str]) -> str:
    """The preview in a line: "If played now: red 6 (yours), yellow cannot move (no
    free space ahead), WILD 2: a car you name"; ``own`` holds the card player's cars,
    and a card that would move none of them says so."""
    said = ", ".join(_row_words(row, row.colour in own) for row in preview.rows)
    if preview.moves_no_car:
        return f"If played now it moves no car: {said}"
    mine = [row for row in preview.rows if row.colour in own and not row.finished]
    if mine and all(row.moved == 0 for row in mine):
        return f"If played now: {said}; none of your cars moves"
    return f"If played now: {said}"


def _row_words(row: RowPreview, yours: bool) -> str:
    mark = " (yours)" if yours else ""
    if row.wild:
        return f"WILD {row.spaces}: a car you name"
    if row.finished:
        return f"{row.colour}{mark} has finished"
    if row.blocked:
        return f"{row.colour}{mark} cannot move (no free space ahead)"
    if row.finishes:
        return f"{row.colour}{mark} {row.moved}, finishing"
    if row.moved < row.spaces:
        return f"{row.colour}{mark} only {row.moved} of {row.spaces} (blocked)"
    if row.moved > row.spaces:
        return f"{row.colour}{mark} up to {row.moved}"
    return f"{row.colour}{mark} {row.moved}"
