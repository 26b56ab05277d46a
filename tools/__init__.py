"""Tools run from a checkout, never installed: one-off generators of shipped data and checkers
that only tests and benchmarks use (``python -m tools.<name>`` from the repository root)."""
