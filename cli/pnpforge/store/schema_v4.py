"""Schema migration 4: releases (the designer's loop)."""

SQL = ""
