"""Sub-commands of the `arbiter` command line, one module per area.

Each module exposes ``register(app)``, which adds its commands to the Typer application.
"""
