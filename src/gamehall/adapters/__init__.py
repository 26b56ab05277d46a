"""Adapters that let research tools use gamehall's engines: OpenSpiel and PettingZoo.

Each adapter is an optional extra (``gamehall[openspiel]``, ``gamehall[pettingzoo]``) and is
imported explicitly (``gamehall.adapters.openspiel``); nothing else in gamehall imports them.
Both share the observation encoding of `gamehall.adapters.encoding`, which needs only numpy.
"""
