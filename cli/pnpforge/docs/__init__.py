"""Player aids and rulebook summaries, generated from cards.db through Jinja2 templates.

Modules: markup (the small Markdown subset every template writes), context
(what templates see), summary (Markdown and PDF summaries), helpers (player-aid
cards on print sheets).  reportlab is imported only by the modules that draw
(summary_pdf, helpers), and only when a PDF is made: Markdown and `pnp cards` never load it.
"""
