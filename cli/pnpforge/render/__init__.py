"""Rendering: fonts, card layouts and faces, sheets and rasters (heavy imports stay inside)."""
