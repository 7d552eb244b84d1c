"""Rules checker: engine interface, runner, agents and one engine per game."""
