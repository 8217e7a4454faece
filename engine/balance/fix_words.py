"""A candidate of Suggest fixes in words, for the Balance panel and ``trackside suggest``
alike: what it changes, the one figure that tells most about it (with its unit, its
95% interval and whether it moved beyond noise), what it makes worse, and every other
figure measured, each with its interval and the noise mark.

The figure that tells most is that of the part of the circuit's problems (stalls over
the goal, grid slots outside their fair share, betting lines not reached) the fix
changes most beyond noise; when it changes none beyond noise, that of what the fix is
made for: a finish line or a lane, the stalled cars; a betting line, the races that
reach it; the grid, the grid slots' points outside their fair share.
"""

from __future__ import annotations

from trackside.engine.balance.compare import NOISE_MARK
from trackside.engine.balance.fixes import (
    Figure,
    Trial,
    capital,
    change_words,
    main_part,
    part_figure,
)

BEYOND = "beyond noise"
WITHIN = f"{NOISE_MARK} within noise"


def main_line(trial: Trial) -> str:
    """The figure that tells most, and whether it moved beyond noise: "Stalled cars 0.60
    → 0.42 a race: -0.18 a race (-0.28 to -0.08), beyond noise"."""
    figure = part_figure(trial, main_part(trial))
    return f"{capital(figure.said)}: {figure.change}, {WITHIN if figure.noise else BEYOND}"


def worse_line(trial: Trial) -> str:
    """What the fix makes worse: a validator warning it adds, or a figure worse beyond
    noise; "" when nothing."""
    worse = trial.worse()
    return f"But worse: {'; '.join(worse)}" if worse else ""


def detail_lines(trial: Trial) -> list[str]:
    """Every other figure of the fix: the other parts' figures, the balance, and the
    problem score it is ranked by, all told and part by part."""
    main = main_part(trial)
    parts = [name for name, _m in trial.parts()]
    shown = ["stalls", "grid slots", "worst slot"]
    shown += ["betting lines"] if "betting lines" in parts else []
    main_said = part_figure(trial, main).said
    said = [part_figure(trial, part) for part in shown]
    out = list(dict.fromkeys(f.line() for f in said if f.said != main_said))  # each once
    balance = trial.balance
    out.append(
        Figure(
            f"balance {balance.before:.2f} → {balance.after:.2f} (1: every slot wins as often)",
            change_words(balance, 2),
            balance.noise,
        ).line()
    )
    return [*out, score_line(trial)]


def score_line(trial: Trial) -> str:
    """The problem score before and after (the sum the fixes are ranked by, lower is
    better), and its parts' changes."""
    score = trial.problems
    said = Figure(
        f"problem score {score.before:.2f} → {score.after:.2f}", change_words(score, 2), score.noise
    ).line()
    parts = [
        f"{name} {change_words(m, 2)}" + (f" {NOISE_MARK}" if m.noise else "")
        for name, m in trial.parts()
    ]
    return said + (f"; of it, {', '.join(parts)}" if parts else "")
