"""Ratings per game (OpenSkill), pure: what a finished game does to its players' ratings."""
