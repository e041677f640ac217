"""Reports: plots (PNG) and self-contained HTML pages."""

from seekplan.report.html import Report

__all__ = ["Report"]
