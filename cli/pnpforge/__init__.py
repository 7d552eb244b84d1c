"""pnpforge: print-and-play card sheets, player aids and rules checks from one card database."""

__version__ = "0.1.0"
