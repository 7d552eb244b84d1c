"""The balance lab: experiments over variants of a deck, played by the engines, reported with intervals.

Modules: `variants` (what to vary, applied to an in-memory copy), `plan` (seeded games and
batches), `worker` and `executors` (where batches run: this process, a local pool, Ray),
`stats` (intervals), `analysis` (figures per variant and against the baseline), `experiment`
(the whole run), `text`, `charts` and `html` (the report as a table, pictures and a page).
"""
