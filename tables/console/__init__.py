"""The croupier console: server-rendered pages with htmx, adapters over tables.services."""
