"""Operating a hall: `gamehall serve`, its settings, limits machinery, metrics, garbage collection.
"""
