"""Pub/sub: how a room's events reach every connection watching it, in process or through Redis."""
