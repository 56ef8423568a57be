"""The rulebook of a game, made from the rules that run: `rulelang rules` and `rulelang explain`.

``checked`` loads a game as the compiler does and keeps what the checker made of it (the model and the
checked tree of every rule text); ``words`` puts a checked tree into plain words, a method per node class;
``book`` gathers the sections of a rulebook from the model; ``render`` writes it as Markdown or HTML;
``modded`` marks what each mod changes; ``explain`` answers for one name. Nothing here runs a game.
"""
