"""Settlement reports: built by Celery at the end of a gaming session."""
