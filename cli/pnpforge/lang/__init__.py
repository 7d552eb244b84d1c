"""Languages as data: what a kit prints, per language, with provenance and staleness.

`units` lists every original text a game prints; `status` compares them with
the stored translations (missing, stale, glossary use); `edition` builds a
game's kit data in another language; `sheet` is the translator's round trip.
"""
