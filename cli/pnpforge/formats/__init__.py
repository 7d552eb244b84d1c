"""Guarded readers of outside input whose form alone can hurt: a download, an XLSX workbook.

Each module is the one way into its format: every limit (time, bytes, rows,
cells, addresses) is checked in its mechanism, so a caller cannot forget one.
"""
