"""One subpackage per game; each registers itself through the `gamehall.games` entry points."""
