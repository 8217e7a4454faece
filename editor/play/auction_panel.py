"""The auction panel: the car and power up for auction, and every reveal so far.

It reads only public log events (``reveal``, ``bids``, ``auction``) so it shows
every player the same thing: what was bid with which card, who passed, who won
at what price and why (highest, more rows, no WILD, at random, R-AUC-3), the
rare cases (nobody bids, the last car, the set-aside cars: R-AUC-7, R-AUC-8).
The newest auction is on top, so a reveal stays on screen after the next car
comes up.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from trackside.editor.play.cars import CAR_COLOURS, INK
from trackside.engine.game import Card, Event


def chip(colour: str, text: str | None = None) -> str:
    """An HTML colour chip for a car colour (or WILD)."""
    bg = CAR_COLOURS.get(colour, "#888")
    fg = INK.get(colour, "#fff")
    # Non-breaking spaces: a chip ("black 4") never splits over two lines.
    label = html.escape(text if text is not None else colour).replace(" ", "&nbsp;")
    return f"<span style='background:{bg}; color:{fg}; font-weight:bold'>&nbsp;{label}&nbsp;</span>"


def card_html(card: Card) -> str:
    """A card as chips, top row first."""
    return " ".join(chip(c, f"{'WILD' if c == 'wild' else c} {n}") for c, n in card.rows)


@dataclass
class _Auction:
    """One car's auction as the log tells it."""

    car: str | None = None
    power: str | None = None
    bids: list[Event] = field(default_factory=list)
    results: list[Event] = field(default_factory=list)


SECOND_ROUND = ("second chance", "passed twice")  # R-AUC-8's results


def auctions(events: list[Event]) -> list[_Auction]:
    """The auctions in log order; the set-aside cars' second round is one more entry."""
    out: list[_Auction] = []
    for e in events:
        if e.kind == "reveal":
            out.append(_Auction(e.data.get("car"), e.data.get("power")))
        elif e.kind in ("bids", "auction"):
            second = e.data.get("reason") in SECOND_ROUND or (
                e.kind == "bids" and "bids" not in e.data
            )
            if not out or (second and out[-1].car is not None):
                out.append(_Auction())  # the second round reveals no car
            (out[-1].bids if e.kind == "bids" else out[-1].results).append(e)
    return out


_SEAT = re.compile(r"Player (\d+)")


def _names(text: str, name_of: Callable[[int], str]) -> str:
    return html.escape(_SEAT.sub(lambda m: name_of(int(m.group(1)) - 1), text))


class AuctionPanel(QWidget):
    """What is up for auction and how every auction so far went (newest first)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setContentsMargins(6, 6, 6, 6)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.text)
        layout.addWidget(scroll)
        self._shown = ""

    def update_from(self, events: list[Event], card_of, name_of) -> None:
        """Rebuild from the log: the car up now, then every earlier reveal and result."""
        runs = auctions(events)
        if not runs:
            html_text = (
                "<i>No auction in this variant: cars are dealt.</i>"
                if any(e.kind == "deal" for e in events)
                else ""
            )
        else:
            parts = [
                self._entry(k, run, card_of, name_of, last=k == len(runs) - 1)
                for k, run in enumerate(runs)
            ]
            html_text = "<hr>".join(reversed(parts))
        if html_text != self._shown:  # the log grows every move: redraw only on change
            self._shown = html_text
            self.text.setText(html_text)

    @staticmethod
    def _entry(
        k: int,
        run: _Auction,
        card_of: Callable[[int], Card],
        name_of: Callable[[int], str],
        last: bool,
    ) -> str:
        if run.car is None:
            head = "<b>Second chance for the set-aside cars</b>"
        else:
            verb = "Up for auction" if last and not run.results else f"Car {k + 1}"
            head = (
                f"<b>{verb}:</b> "
                + chip(run.car, f"{run.car} car")
                + (f" with <b>{html.escape(run.power.title())}</b>" if run.power else " (no power)")
            )
        lines = [head]
        for bids in run.bids:
            data = bids.data.get("bids")
            if data is None:  # a second-round pass: one line of text
                lines.append(_names(bids.text, name_of))
                continue
            verb = "shows" if bids.data.get("forced") else "bids"  # R-AUC-7 ruling: the lowest card
            for p, (value, cid) in sorted(data.items()):
                lines.append(
                    f"{html.escape(name_of(p))} {verb} <b>{value}</b> with "
                    + card_html(card_of(cid))
                )
            passed = [
                part for part in bids.text.split(": ", 1)[-1].split("; ") if part.endswith("passes")
            ]
            lines += [_names(part, name_of) for part in passed]
        if not run.bids and not run.results:
            lines.append("<i>Bids are secret until everyone has chosen.</i>")
        for result in run.results:
            d = result.data
            if "price" in d and "seat" in d:
                lines.append(
                    f"<b>{html.escape(name_of(d['seat']))}</b> takes the "
                    f"{chip(d['car'])} car for <b>${d['price']}M</b> "
                    f"({html.escape(d.get('reason', ''))})"
                )
            else:
                lines.append(f"<b>{_names(result.text, name_of)}</b>")
        return "<br>".join(lines)
