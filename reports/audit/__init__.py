"""The auditor's desk: the audit log read back, filtered and exported (docs/audit.md)."""
