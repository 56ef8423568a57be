"""Logs: event logs and log files, replays, saved states, the play-by-play in words."""
