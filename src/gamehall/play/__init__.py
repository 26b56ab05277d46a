"""Running games without a server: terminal play, self-play tournaments, ratings."""
