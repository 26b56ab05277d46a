"""Tournaments: arenas, Swiss and round robins, live and by correspondence (docs/tournaments.md)."""
