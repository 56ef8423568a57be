"""The balance lab: batches of games played by agents, and what they say about a spec.

``simulate`` plays the games (in one process or several, with the same
results), ``stats`` turns the games into rates with intervals and
distributions, ``report`` prints them as a table, JSON, CSV or a plot.
"""
