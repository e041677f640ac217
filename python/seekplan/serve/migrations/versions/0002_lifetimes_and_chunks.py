"""Pin lifetimes, requests written in chunks, and the indexes that keep a
release or cancel O(files named) (replacing the index on the request alone).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds requests.accepted, files.lifetime_s and files.pin_expires_at, and
    the path indexes."""
    with op.batch_alter_table("requests") as batch:
        batch.add_column(
            sa.Column("accepted", sa.Boolean, nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("files") as batch:
        batch.add_column(sa.Column("lifetime_s", sa.Float, nullable=True))
        batch.add_column(sa.Column("pin_expires_at", sa.Float, nullable=True))
    op.create_index("files_request_path", "files", ["request_id", "path"])
    # Its prefix serves every lookup by request: one index less to keep up
    # on every insert.
    op.drop_index("files_request", "files")
    op.create_index("files_path", "files", ["path"])
    op.create_index("files_pin_expiry", "files", ["pin_expires_at"])


def downgrade() -> None:
    """Drops what upgrade added."""
    op.drop_index("files_pin_expiry", "files")
    op.drop_index("files_path", "files")
    op.create_index("files_request", "files", ["request_id"])
    op.drop_index("files_request_path", "files")
    with op.batch_alter_table("files") as batch:
        batch.drop_column("pin_expires_at")
        batch.drop_column("lifetime_s")
    with op.batch_alter_table("requests") as batch:
        batch.drop_column("accepted")
