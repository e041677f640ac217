"""Alembic's entry point for the service's schema: it runs on the connection
:func:`seekplan.serve.db.migrate` hands it (no alembic.ini, no URL here)."""

from alembic import context

from seekplan.serve.db import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
