"""The establishment: staff and their roles, players, gaming sessions, the audit log, errors.

The ground floor of the house (docs/architecture.md): every other app may import it; it imports
none of them.
"""
