"""The project's own data files: the default model and the demo trial (see engine.demo)."""
