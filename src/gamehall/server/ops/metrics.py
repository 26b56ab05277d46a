"""Prometheus metrics for `/metrics` (the standard client library, one registry per hall).

Counters and histograms are updated where things happen (a commit, a publication, a forwarded
request, a lease change); gauges are read from the hall when Prometheus scrapes.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """The hall's metrics; `render` is the text Prometheus scrapes."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        ProcessCollector(registry=r)  # CPU seconds, memory, open files of this process
        self.moves = Counter("gamehall_moves", "Moves committed (people, bots and chance)",
                             registry=r)
        self.commit_seconds = Histogram(
            "gamehall_commit_seconds", "Time from handing a room change to storage until it is "
            "committed", buckets=LATENCY, registry=r)
        self.broadcast_seconds = Histogram(
            "gamehall_broadcast_seconds", "Time to publish a room event to this node's "
            "connections and (in a cluster) to Redis", buckets=LATENCY, registry=r)
        self.forward_seconds = Histogram(
            "gamehall_forward_seconds", "Round trip of a request passed to the node that owns "
            "the room", buckets=LATENCY, registry=r)
        self.lease_changes = Counter(
            "gamehall_lease_changes", "Room leases this node acquired, lost or released",
            ["change"], registry=r)
        self.fenced = Counter(
            "gamehall_fenced_commits", "Commits the database refused because another node "
            "had claimed the room (a fencing number behind)", registry=r)
        self.rooms = Gauge("gamehall_rooms", "Rooms in memory", ["role"], registry=r)
        self.connections = Gauge("gamehall_connections", "Open WebSocket connections",
                                 registry=r)
        self.bot_queue = Gauge("gamehall_bot_queue", "Rooms whose bot is waiting or thinking",
                               registry=r)

    def gauges(self, rooms_owned: Callable[[], float], rooms_other: Callable[[], float],
               connections: Callable[[], float], bot_queue: Callable[[], float]) -> None:
        """Read these when scraped."""
        self.rooms.labels("owned").set_function(rooms_owned)
        self.rooms.labels("replica").set_function(rooms_other)
        self.connections.set_function(connections)
        self.bot_queue.set_function(bot_queue)

    def render(self) -> bytes:
        return generate_latest(self.registry)
