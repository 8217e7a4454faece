"""What a card would do if it were played now: how far each of its cars would go.

``card_preview(game, card_id)`` plays the card on a copy of ``game`` and reads
what happened from the copy's log; the game itself is not touched. The copy
resolves the rows in printed order without a Strategic skip, and every car takes
its longest move (R-MOVE-4: a car that cannot move its full number goes as far
as it can, and one with no free space ahead stays). A WILD row's car is the card
player's to name (R-RACE-4): for the other rows the copy names a finished car
where one may be named (it moves nothing), so that they are told as they would
go; and for each of the player's own cars still racing that the row may name,
another copy names it and tells how far it would go.
"""

from __future__ import annotations

from dataclasses import dataclass

from trackside.engine.game.cards import COLOURS, WILD
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
    # A WILD row: each of the card player's racing cars it may name, and how far that
    # car would go (spaces, and whether it would finish).
    named: tuple[tuple[str, int, bool], ...] = ()

    @property
    def wild(self) -> bool:
        """True for a WILD row: the card player names its car."""
        return self.colour == WILD

    @property
    def blocked(self) -> bool:
        """True when the row's car would not move at all: no free space ahead."""
        return not self.wild and not self.finished and self.moved == 0

    @property
    def outcome(self) -> str:
        """What the row does, in one word: "wild" (its car is named), "finished"
        (its car has already), "blocked", "finishes", "short" (stops before its
        number), "more" (goes further than printed: Aggressive, Determined), "full"."""
        if self.wild:
            return "wild"
        if self.finished:
            return "finished"
        if self.blocked:
            return "blocked"
        if self.finishes:
            return "finishes"
        if self.moved < self.spaces:
            return "short"
        return "more" if self.moved > self.spaces else "full"


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
    played = _played_on_a_copy(game, seat, card_id, None)
    assert played is not None  # naming nothing in particular is always possible
    moved, finishing = played
    own = [c for c in COLOURS if game.owner_of(c) == seat and game.position(c) is not None]
    rows = []
    wild_rank = 0
    for colour, n in card.rows:
        if colour == WILD:
            named = _named(game, seat, card_id, wild_rank, own, played)
            rows.append(RowPreview(colour, n, named=named))
            wild_rank += 1
        else:
            rows.append(
                RowPreview(
                    colour,
                    n,
                    moved.get(colour, 0),
                    colour in finishing,
                    before[colour] is None,
                )
            )
    return CardPreview(card_id, tuple(rows))


def _named(
    game: Game,
    seat: int,
    card_id: int,
    rank: int,
    own: list[str],
    base: tuple[dict[str, int], set[str]],
) -> tuple[tuple[str, int, bool], ...]:
    """For the ``rank``-th WILD row: each of ``own`` it may name, and how far the row
    takes it: what it moves beyond what its printed rows give it (``base``: the card
    played naming nothing in particular; Unpredictable may name a printed car)."""
    moved_before, finishing_before = base
    out = []
    for car in own:
        if car in finishing_before:  # its printed row finishes it: the WILD adds nothing
            continue
        played = _played_on_a_copy(game, seat, card_id, (rank, car))
        if played is not None:
            moved, finishing = played
            extra = moved.get(car, 0) - moved_before.get(car, 0)
            out.append((car, extra, car in finishing))
    return tuple(out)


def _played_on_a_copy(
    game: Game, seat: int, card_id: int, wild: tuple[int, str] | None
) -> tuple[dict[str, int], set[str]] | None:
    """Each car's spaces moved and the cars finishing when ``card_id`` is played on a
    copy, its ``wild[0]``-th WILD row naming ``wild[1]`` (None: WILD rows name cars
    that move nothing where they can); None when that car may not be named there."""
    sim = game.copy(log=True)
    start = len(sim.log)
    sim.apply(PlayCard(seat, card_id))
    for _ in range(STEPS_AT_MOST):
        if sim.state.card is None or sim.over:
            break
        options = sim.options(sim.due()[0])
        if wild is not None and isinstance(options[0], Wild):
            answer = _wild_answer(sim, options, wild)
            if answer is None:
                return None
            choice: Decision = answer
        else:
            choice = _choice(sim, options)
        sim.apply(choice)
    moved: dict[str, int] = {}
    finishing: set[str] = set()
    for event in sim.log[start:]:
        if event.kind in ("move", "finish"):
            car = str(event.data["car"])
            moved[car] = moved.get(car, 0) + len(event.data["path"])
            if event.kind == "finish":
                finishing.add(car)
    return moved, finishing


def _wild_answer(sim: Game, options: list[Decision], keep: tuple[int, str] | None) -> Wild | None:
    """The copy's WILD answer: with ``keep`` (rank, car), one naming that car for the
    rank-th WILD row (None if none may); its other rows, or every row without
    ``keep``, naming finished cars where they may (they move nothing), else cars not
    printed on the card (Unpredictable may name printed ones)."""
    assert sim.state.card is not None  # a card is being resolved
    printed = {c for c, _ in sim.card_of(sim.state.card).rows}
    rank = -1 if keep is None else keep[0]
    named = [
        o
        for o in options
        if isinstance(o, Wild)
        and (keep is None or (len(o.colours) > rank and o.colours[rank] == keep[1]))
    ]
    others = [[c for k, c in enumerate(o.colours) if k != rank] for o in named]
    quiet = [
        o for o, cs in zip(named, others, strict=True) if all(sim.position(c) is None for c in cs)
    ]
    apart = [o for o, cs in zip(named, others, strict=True) if not set(cs) & printed]
    chosen = quiet or apart or named
    return chosen[0] if chosen else None


def _choice(sim: Game, options: list[Decision]) -> Decision:
    """The copy's answer: printed order, no skip, for WILD a finished car where one
    may be named (else a car not printed on the card), the longest move."""
    first = options[0]
    if isinstance(first, Order):
        return min(options, key=lambda o: o.rows if isinstance(o, Order) else ())
    if isinstance(first, Skip):
        return next((o for o in options if isinstance(o, Skip) and o.row is None), first)
    if isinstance(first, Wild):
        return _wild_answer(sim, options, None) or first
    if isinstance(first, Path):
        return max(options, key=lambda o: len(o.path) if isinstance(o, Path) else 0)
    return first


def preview_words(preview: CardPreview, own: set[str]) -> str:
    """The preview in a line: "If played now: red (yours) 6, yellow cannot move (no
    free space ahead), WILD 2: a car you name (your blue 2)"; ``own`` holds the card
    player's cars, and a card that would move none of them, WILD rows included, says
    so."""
    said = ", ".join(_row_words(row, row.colour in own) for row in preview.rows)
    if preview.moves_no_car:
        return f"If played now it moves no car: {said}"
    mine = [row for row in preview.rows if row.colour in own and not row.finished]
    wild_moves = any(moved for row in preview.rows for _car, moved, _done in row.named)
    if mine and all(row.moved == 0 for row in mine) and not wild_moves:
        return f"If played now: {said}; none of your cars moves"
    return f"If played now: {said}"


def _row_words(row: RowPreview, yours: bool) -> str:
    if row.wild:
        said = f"WILD {row.spaces}: a car you name"
        if row.named:
            cars = [
                _move_words(f"your {car}", RowPreview(car, row.spaces, moved, finishes))
                for car, moved, finishes in row.named
            ]
            said += f" ({'; '.join(cars)})"
        return said
    return _move_words(f"{row.colour}{' (yours)' if yours else ''}", row)


# A row's outcome (``RowPreview.outcome``) in words, its car named first.
MOVE_WORDS = {
    "finished": "{name} has finished",
    "blocked": "{name} cannot move (no free space ahead)",
    "finishes": "{name} {moved}, finishing",
    "short": "{name} only {moved} of {spaces} (blocked)",
    "more": "{name} up to {moved}",
    "full": "{name} {moved}",
}


def _move_words(name: str, row: RowPreview) -> str:
    return MOVE_WORDS[row.outcome].format(name=name, moved=row.moved, spaces=row.spaces)
