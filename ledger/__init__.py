"""Double-entry books: accounts, transactions and entries (see docs/ledger.md)."""
