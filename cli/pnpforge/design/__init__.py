"""The designer's loop: a new game from a spreadsheet, starter layouts, live preview and watch.

Modules here sit above `edit`, `render` and `docs`: they write through `edit`
like every other write (file formats are read by `pnpforge.formats`), and import nothing heavy at
module level (openpyxl loads inside the spreadsheet calls).
"""
