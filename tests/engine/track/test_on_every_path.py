"""R-MOVE-3 single-file stretches: the spaces every forward path passes, found by
the jumps over each node, agree with counting the paths through each node (the
way the validator found them before, kept here as the careful reference)."""

from __future__ import annotations

import random

from depth import examples

from trackside.engine.track.validate import on_every_path


def by_counting(
    order: list[int], succ: dict[int, list[int]], starts: set[int], sink_edges: dict[int, int]
) -> list[int]:
    to = {i: (1 if i in starts else 0) for i in order}
    for a in order:
        for b in succ[a]:
            if b in to:
                to[b] += to[a]
    frm: dict[int, int] = {}
    for a in reversed(order):
        frm[a] = sink_edges[a] + sum(frm.get(b, 0) for b in succ[a])
    total = sum(to[a] * sink_edges[a] for a in order)
    if total == 0:
        return []
    return [a for a in order if to[a] * frm[a] == total]


def random_graph(rng: random.Random) -> tuple:
    n = rng.randint(1, 30)
    nodes = list(range(n))
    rng.shuffle(nodes)  # the topological order is not the numbering
    reach = rng.choice([1, 2, 3, 5])
    density = rng.random()
    succ: dict[int, list[int]] = {a: [] for a in nodes}
    for k, a in enumerate(nodes):
        for b in nodes[k + 1 : k + 1 + reach]:
            if rng.random() < density:
                succ[a].append(b)
        if rng.random() < 0.1:
            succ[a].append(100 + k)  # a successor outside the order (on a cycle)
    starts = {a for a in nodes if rng.random() < 0.15}
    sink_edges = {a: (rng.randint(1, 2) if rng.random() < 0.15 else 0) for a in nodes}
    return nodes, succ, starts, sink_edges


def test_jumps_agree_with_counting_paths():
    for seed in range(examples(400)):
        graph = random_graph(random.Random(seed))
        assert on_every_path(*graph) == by_counting(*graph), seed


def test_a_single_lane_is_single_file_and_a_split_is_not():
    order = [0, 1, 2, 3, 4]
    succ = {0: [1, 2], 1: [3], 2: [3], 3: [4], 4: []}
    assert on_every_path(order, succ, {0}, {0: 0, 1: 0, 2: 0, 3: 0, 4: 1}) == [0, 3, 4]
    assert on_every_path(order, succ, {0}, dict.fromkeys(order, 0)) == []
