"""Mods: mod files laid over a loaded spec (add, replace, remove, set, insert steps, wrap), positions kept."""
