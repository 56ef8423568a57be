"""Reading a spec: safe file reads, YAML with positions, includes and budgets, the schema, rulings, the cache."""
