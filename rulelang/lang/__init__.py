"""The rule language: grammar, parser, nodes, syntax errors, types, the names each text sees."""
