"""The typer CLI: one module per command, each thin over a library call."""
