"""Schema migration 3: deck constraints and the rulebook edition (the rules checker)."""

SQL = ""
