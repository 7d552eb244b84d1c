"""Player aids and rulebook summaries, generated from cards.db through Jinja2 templates.

Modules: markup (the small Markdown subset every template writes), context
(what templates see), summary (Markdown and PDF summaries), helpers (player-aid
cards on print sheets).  Heavy imports (reportlab) stay inside functions.
"""
