"""The REST API (DRF): adapters over the same services and selectors as the console."""
