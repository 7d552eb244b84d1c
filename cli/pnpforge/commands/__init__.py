"""Thin Typer commands: parse options, call the library, format the output."""
