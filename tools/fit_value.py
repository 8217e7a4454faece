#!/usr/bin/env python3
"""Fit the strong bot's value estimate to bot games: ``engine/bots/value_weights.json``.

The estimate (``engine/bots/value.py``) scores each running car by a weighted
sum of its ``CAR_FEATURES`` and lets the cars finish in a Plackett-Luce order
of the scores. This script plays games, notes every running car's features
each time a card is due in the race, and after the race the order in which
those cars finished (cars that stalled come last, in no order), and fits the
weights by maximum likelihood (Newton's method, a light ridge so that a
feature that never varies gets weight 0).

Round 1 plays greedy bots; each later round plays four strong bots that use
the weights of the round before, so that the estimate learns how the strong
bot's own games end. Games are played on each training circuit (two of the
bundled ones and the editor's two templates: Estuary Sweep is held out, so
that the strength benchmark can report on a bundled circuit the estimate
never saw), standard variant, four players, game i
of a circuit from seed ``SEED + i``; a fifth of the games (every fifth seed)
is held out, and its log-likelihood per race position is printed with the
fit's. The same arguments give the same weights whatever ``--workers``.

The stored weights came from one round of greedy games (the strong bot's
opponents in the strength benchmark are greedy, and a round of strong games
costs far more). Run from the repository root:
``python tools/fit_value.py --games 600 --rounds 1 --workers 2 --write``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import numpy.typing as npt

from trackside.engine.bots import GreedyBot, StrongBot, ask, bot_seed
from trackside.engine.bots.base import Seat
from trackside.engine.bots.tables import deck_tables, track_tables
from trackside.engine.bots.value import CAR_FEATURES, RaceValue, car_features
from trackside.engine.game import Board, Game, load_variant
from trackside.engine.game.steps import OFF, STEP_CARD
from trackside.engine.records import open_track
from trackside.engine.simulate import few_collections
from trackside.engine.track.model import Track
from trackside.engine.track.templates import oval, peanut

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "engine" / "bots" / "value_weights.json"
CIRCUITS = ("harbour-loop", "quarry-hairpin", "oval", "peanut")
CHUNK = 25  # games per task handed to a worker
RIDGE = 1.0  # L2 penalty on the weights (in log-likelihood units)
Floats = npt.NDArray[np.float64]


def circuit(name: str) -> Track:
    """A training circuit: a bundled one, or a template."""
    return {"oval": oval, "peanut": peanut}.get(name, lambda: open_track(name))()


def seats(seed: int, weights: list[float] | None) -> list[Seat]:
    """Four greedy bots (no weights yet) or four strong bots using ``weights``."""
    if weights is None:
        return [GreedyBot(bot_seed(seed, seat, "greedy")) for seat in range(4)]
    value = RaceValue(weights)
    return [StrongBot(bot_seed(seed, seat, "strong"), value=value) for seat in range(4)]


def play(task: tuple[str, int, int, list[float] | None]) -> list[tuple[int, Floats, Floats]]:
    """Games ``first`` to ``stop - 1`` on a circuit: per card due in each race, the
    running cars' features (6 x features, zero where no car runs) and their rank
    in the order they went on to finish (a stalled car: -1; not running: -2)."""
    name, first, stop, weights = task
    variant = load_variant("standard")
    board = Board.of(circuit(name), True)
    tables, deck = track_tables(board), deck_tables(variant.deck.cards)
    out = []
    with few_collections():
        for seed in range(first, stop):
            game = Game.new(board, variant, 4, seed, log=False)
            bots = seats(seed, weights)
            noted: list[tuple[list[int], list[list[float]]]] = []
            while not game.over:
                if game.state.step is STEP_CARD:
                    noted.append(car_features(game.state, tables, deck))
                for seat in game.due():
                    game.apply(bots[seat].choose(*ask(game, seat)))
            finished = game.state.finished
            for running, rows in noted:
                features = np.zeros((6, len(CAR_FEATURES)))
                rank = np.full(6, -2.0)
                ahead = [c for c in finished if c in running]
                for c, row in zip(running, rows, strict=True):
                    features[c] = row
                    rank[c] = ahead.index(c) if c in ahead else -1
                out.append((seed, features, rank))
            assert all(game.state.car_spaces[c] == OFF for c in finished)
    return out


def gather(games: int, seed: int, workers: int, weights: list[float] | None) -> list[tuple]:
    """Every circuit's games, in circuit and seed order."""
    tasks = [
        (name, first, min(first + CHUNK, seed + games), weights)
        for name in CIRCUITS
        for first in range(seed, seed + games, CHUNK)
    ]
    if workers <= 1:
        parts = map(play, tasks)
        return [row for part in parts for row in part]
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        return [row for part in pool.map(play, tasks) for row in part]


def log_likelihood(weights: Floats, x: Floats, rank: Floats) -> tuple[float, Floats, Floats]:
    """The Plackett-Luce log-likelihood of the finishing orders, its gradient and
    its Hessian (``x``: snapshots x cars x features; ``rank``: as ``play`` gives)."""
    scores = x @ weights
    total, grad = 0.0, np.zeros_like(weights)
    hess = np.zeros((len(weights), len(weights)))
    for k in range(6):
        chosen = rank == k
        rows = chosen.any(axis=1)
        if not rows.any():
            continue
        active = ((rank >= k) | (rank == -1))[rows]
        z = np.where(active, scores[rows], -np.inf)
        top = z.max(axis=1, keepdims=True)
        e = np.exp(z - top)
        share = e / e.sum(axis=1, keepdims=True)
        xr = x[rows]
        total += float((scores[rows] * chosen[rows]).sum() - (top[:, 0] + np.log(e.sum(1))).sum())
        mean = np.einsum("nk,nkd->nd", share, xr)
        grad += np.einsum("nk,nkd->d", chosen[rows], xr) - mean.sum(axis=0)
        hess -= np.einsum("nk,nkd,nke->de", share, xr, xr) - mean.T @ mean
    return total, grad, hess


def fit(x: Floats, rank: Floats) -> Floats:
    """The weights of greatest penalised likelihood (Newton's method)."""
    weights = np.zeros(x.shape[-1])
    for _ in range(30):
        _, grad, hess = log_likelihood(weights, x, rank)
        step = np.linalg.solve(hess - RIDGE * np.eye(len(weights)), grad - RIDGE * weights)
        weights -= step
        if np.abs(step).max() < 1e-6:
            break
    return weights


def per_position(weights: Floats, x: Floats, rank: Floats) -> float:
    """Mean log-likelihood per finishing position explained."""
    total, _, _ = log_likelihood(weights, x, rank)
    return total / max(1, int((rank >= 0).sum()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per circuit and round")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"store the weights in {WEIGHTS}")
    parser.add_argument("--out", type=Path, default=WEIGHTS, help="where --write stores them")
    args = parser.parse_args()
    weights: list[float] | None = None
    for round_ in range(1, args.rounds + 1):
        began = time.perf_counter()
        rows = gather(args.games, args.seed, args.workers, weights)
        held = np.array([seed % 5 == 0 for seed, _, _ in rows])
        x = np.array([f for _, f, _ in rows])
        rank = np.array([r for _, _, r in rows])
        fitted = fit(x[~held], rank[~held])
        bots = "greedy" if weights is None else "strong"
        print(
            f"round {round_} ({bots} bots, {len(rows)} snapshots, "
            f"{time.perf_counter() - began:.0f} s): log-likelihood per position "
            f"{per_position(fitted, x[~held], rank[~held]):.4f} fitted, "
            f"{per_position(fitted, x[held], rank[held]):.4f} held out "
            f"(no weights: {per_position(np.zeros_like(fitted), x[held], rank[held]):.4f})",
            flush=True,
        )
        weights = [round(float(w), 6) for w in fitted]
    assert weights is not None
    for name, w in zip(CAR_FEATURES, weights, strict=True):
        print(f"  {name:<22} {w:+.4f}")
    if args.write:
        data = {
            "fitted_by": "tools/fit_value.py",
            "games_per_circuit": args.games,
            "rounds": args.rounds,
            "seed": args.seed,
            "circuits": list(CIRCUITS),
            "car": dict(zip(CAR_FEATURES, weights, strict=True)),
        }
        args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"stored in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
