"""The designer's loop: a new game from a spreadsheet, spreadsheets and links in, live preview, releases.

Modules here sit beside `edit`/`importer`: they read and write through the
store and validate like every other write, and import nothing heavy at
module level (openpyxl loads inside the spreadsheet calls).
"""
