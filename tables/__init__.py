"""What happens at a table: tables and their settings, sessions, seats, staff, sabots.

The rules of the games live in `tables.engine` (pure Python, standard library only).
"""
