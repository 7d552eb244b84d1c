"""Schema migration 2: value limits and type checks that raw SQL cannot bypass (edits under hostile input)."""

SQL = ""
