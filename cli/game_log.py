"""The game's log as ``trackside play`` prints it while the game goes on: the auction
with its reasons, each card, every move (car, from -> to, the spaces entered), line
crossings and bets; the score sheet is printed apart (``cli.score_text``)."""

from __future__ import annotations

from typing import TextIO

from trackside.engine.bots import race_of
from trackside.engine.game import Event, Game, Series
from trackside.engine.text import ordinal, terminal_safe


class LogPrinter:
    """Prints the game log as it grows, with moves as car, from -> to and path."""

    def __init__(self, game: Game | Series, out: TextIO, kinds: list[str]):
        self.game, self.out, self.kinds = game, out, kinds
        self.race: Game | None = None
        self.seen = 0
        self.where: dict[str, str] = {}

    def flush(self) -> None:
        """Print the events logged since the last call."""
        race = race_of(self.game)
        if race is not self.race:
            self.race, self.seen, self.where = race, 0, {}
            if isinstance(self.game, Series):
                title = f"Race {self.game.race + 1} of {len(self.game.boards)}"
            else:
                title = "Race"
            self._line(
                f"== {title}: {terminal_safe(race.board.track.name)} "
                f"({terminal_safe(race.variant.name)}, {race.players} players: "
                + ", ".join(f"P{seat + 1} {k}" for seat, k in enumerate(self.kinds))
                + ") =="
            )
        for event in race.log[self.seen :]:
            self._event(race, event)
        self.seen = len(race.log)

    def _line(self, text: str) -> None:
        print(text, file=self.out)

    def _event(self, race: Game, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == "setup":
            grid = race.board.track.start_grid
            self.where = {colour: grid[k] for k, colour in enumerate(data["grid"])}
            self._line(
                "Start grid: " + ", ".join(f"{grid[k]} {c}" for k, c in enumerate(data["grid"]))
            )
        elif kind in ("move", "finish"):
            car, path = data["car"], data["path"]
            start = self.where.get(car, "?")
            if kind == "finish":
                self.where.pop(car, None)
                end = f"finishes {ordinal(data['place'])}"
            else:
                self.where[car] = path[-1]
                end = path[-1]
            notes = [
                n
                for n, on in (
                    ("blocked", data.get("blocked")),
                    ("Determined bonus", data.get("bonus")),
                )
                if on
            ]
            extra = f" [{', '.join(notes)}]" if notes else ""
            self._line(f"    {car}: {start} -> {end} (via {' '.join(path)}){extra}")
        elif kind == "cross":
            self._line(f"    * {event.text}")
        elif kind == "play":
            self._line(f"  {event.text}")
        elif kind in ("stay", "order", "skip", "wild"):
            self._line(f"    {event.text}")
        elif kind == "score":
            return  # the score sheet is printed as a table at the end
        else:
            self._line(event.text)
