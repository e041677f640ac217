"""The first schema: stage requests with their kept counts, their files, and
the disk buffer's pins.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates the three tables and their indexes."""
    op.create_table(
        "requests",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("client", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("completed_at", sa.Float, nullable=True),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("n_files", sa.Integer, nullable=False),
        sa.Column("n_submitted", sa.Integer, nullable=False),
        sa.Column("n_started", sa.Integer, nullable=False),
        sa.Column("n_completed", sa.Integer, nullable=False),
        sa.Column("n_failed", sa.Integer, nullable=False),
        sa.Column("n_cancelled", sa.Integer, nullable=False),
    )
    op.create_index("requests_client", "requests", ["client"])
    op.create_table(
        "files",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("request_id", sa.String(36), sa.ForeignKey("requests.id"), nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("tape", sa.String(200), nullable=True),
        sa.Column("block", sa.BigInteger, nullable=True),
        sa.Column("size", sa.BigInteger, nullable=True),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("released", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("files_request", "files", ["request_id"])
    op.create_index("files_state", "files", ["state"])
    op.create_table(
        "disk",
        sa.Column("path", sa.Text, primary_key=True),
        sa.Column("pins", sa.Integer, nullable=False),
        sa.Column("staged_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drops the tables."""
    op.drop_table("disk")
    op.drop_table("files")
    op.drop_table("requests")
