"""A room's pure rules of play: seats, moves, endings, clocks, deadlines, chat commands, the room's
JSON, replay, refusals. No I/O.
"""
