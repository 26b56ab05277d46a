"""Players find each other: quick pairing pools (one click, paired in waves by rating) and open
challenges (seeks) anyone may accept. See docs/pairing.md.
"""
