"""Testing a game: scenarios, coverage by mutants."""
