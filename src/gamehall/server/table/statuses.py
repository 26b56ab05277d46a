"""A room's three statuses, in the order a room goes through them. Their own module so that the
pure rules that read a room (hints, its JSON) need not import the room's rules of play."""

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"

STATUSES = (WAITING, PLAYING, FINISHED)
