"""A minimum-cost matching of players already in order (by rank, or by standing), by
`networkx.max_weight_matching` over weights ``BIG − cost`` with maximum cardinality.

Its cost grows with the cube of the players: 50 take a tenth of a second, 100 nearly a
second, 200 six (benchmarks/README.md). So a field larger than `WINDOW` is cut, in its order,
into windows of at most `WINDOW` (an even count each), each matched alone (lichess too pairs
large arenas otherwise than small ones). Neighbours in the order meet neighbours either way.
"""

from __future__ import annotations

from collections.abc import Callable

import networkx as nx

WINDOW = 50


def _match(ids: list[int], cost: Callable[[int, int], int]) -> list[tuple[int, int]]:
    if len(ids) < 2:
        return []
    costs = {(a, b): cost(ids[a], ids[b]) for a in range(len(ids)) for b in range(a + 1, len(ids))}
    big = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, big - c) for (a, b), c in costs.items())
    found = nx.max_weight_matching(graph, maxcardinality=True)
    return [(ids[min(a, b)], ids[max(a, b)]) for a, b in found]


def min_cost_pairs(order: list[int], cost: Callable[[int, int], int]) -> list[tuple[int, int]]:
    """Pairs of indices into the players (`order`: their indices, best first), each pair's
    better placed first; with an odd count the one left out is the matching's choice in the
    last window."""
    pairs: list[tuple[int, int]] = []
    windows = max(1, -(-len(order) // WINDOW))
    size = -(-len(order) // windows)
    size += size % 2
    for at in range(0, len(order), size):
        window = order[at : at + size]
        rank = {p: i for i, p in enumerate(window)}
        for a, b in _match(window, cost):
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    return pairs
