"""The lobby pushed to the page: every open room (and, from features, pools and seeks) as lines,
sent once whole and then as changes, on every node of a cluster."""
