"""The model: schema-checked data as a typed `Spec` of frozen declarations, and a game's params."""
