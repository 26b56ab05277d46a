"""`gamehall serve` tunes the cycle collector for a process whose objects mostly live long
(serve.GC_THRESHOLDS): full collections, which walk every object, come far less often than at
Python's defaults, and none is turned off."""

from __future__ import annotations

import gc

from gamehall.server.ops.serve import GC_THRESHOLDS, tune_gc

PYTHON_DEFAULTS = (700, 10, 10)


def test_serving_makes_full_collections_rarer_but_keeps_them() -> None:
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS
        young, middle, full = GC_THRESHOLDS
        # allocations between two chances of a full collection, against Python's defaults
        assert young * middle * full >= 100 * PYTHON_DEFAULTS[0] * PYTHON_DEFAULTS[1] \
            * PYTHON_DEFAULTS[2]
        assert gc.isenabled() and all(t > 0 for t in GC_THRESHOLDS)
    finally:
        gc.set_threshold(*before)
