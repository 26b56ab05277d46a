"""Reviews of finished games: asking for one, running the jobs in worker processes, keeping the
results.
"""
