"""The auction panel: the car and power up for auction, and the last reveal.

It reads only public log events (``reveal``, ``bids``, ``auction``, ``power``)
so it shows every player the same thing: what was bid with which card, who
won at what price and why (highest, more rows, no WILD, at random, R-AUC-3).
"""
from __future__ import annotations

import html

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.game import Card, Event

from .cars import CAR_COLOURS, INK


def chip(colour: str, text: str | None = None) -> str:
    """An HTML colour chip for a car colour (or WILD)."""
    bg = CAR_COLOURS.get(colour, "#888")
    fg = INK.get(colour, "#fff")
    label = html.escape(text if text is not None else colour)
    return f"<span style='background:{bg}; color:{fg}; font-weight:bold'>&nbsp;{label}&nbsp;</span>"


def card_html(card: Card) -> str:
    """A card as chips, top row first."""
    return " ".join(chip(c, f"{'WILD' if c == 'wild' else c} {n}") for c, n in card.rows)


class AuctionPanel(QWidget):
    """What is up for auction and how the last auction went."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.up = QLabel()
        self.up.setWordWrap(True)
        self.reveal = QLabel()
        self.reveal.setWordWrap(True)
        self.result = QLabel()
        self.result.setWordWrap(True)
        for w in (self.up, self.reveal, self.result):
            layout.addWidget(w)
        layout.addStretch(1)

    def update_from(self, events: list[Event], card_of, name_of) -> None:
        """Rebuild from the log: the last car revealed, its bids and result."""
        reveal = bids = result = None
        for e in events:
            if e.kind == "reveal":
                reveal, bids, result = e, None, None
            elif e.kind == "bids" and "bids" in e.data:
                bids = e
            elif e.kind == "auction":
                result = e
        if reveal is None:
            self.up.setText("No auction in this variant: cars are dealt.")
            self.reveal.setText("")
            self.result.setText("")
            return
        car, power = reveal.data.get("car"), reveal.data.get("power")
        self.up.setText("<b>Up for auction:</b> " + chip(car, f"{car} car")
                        + (f" with <b>{html.escape(power.title())}</b>" if power else " (no power)"))
        if bids is not None:
            lines = []
            for p, (value, cid) in sorted(bids.data["bids"].items()):
                lines.append(f"{html.escape(name_of(p))} bids <b>{value}</b> with "
                             + card_html(card_of(cid)))
            passed = bids.text.count("passes")
            if passed:
                lines.append(f"{passed} pass" + ("es" if passed > 1 else ""))
            self.reveal.setText("<b>Reveal:</b><br>" + "<br>".join(lines))
        else:
            self.reveal.setText("<i>Bids are secret until everyone has chosen.</i>")
        if result is not None:
            text = html.escape(name_of(result.data["seat"])) if "seat" in result.data else ""
            if "price" in result.data:
                self.result.setText(f"<b>{text}</b> takes the {chip(result.data['car'])} car for "
                                    f"<b>${result.data['price']}M</b> "
                                    f"({html.escape(result.data.get('reason', ''))})")
            else:
                self.result.setText(html.escape(result.text))
        else:
            self.result.setText("")
