"""Checking: declarations against each other, then every name and type of the rule texts."""
