"""The path index holds staged files only: inserting every requested file
into a full path index was the slowest part of accepting files requested in
random order.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

STAGED = sa.text("state = 'COMPLETED'")


def upgrade() -> None:
    """Replaces the index on every file's path by one on staged files' paths."""
    op.drop_index("files_path", "files")
    op.create_index(
        "files_path_staged", "files", ["path"], sqlite_where=STAGED, postgresql_where=STAGED
    )


def downgrade() -> None:
    """Restores the index on every file's path."""
    op.drop_index("files_path_staged", "files")
    op.create_index("files_path", "files", ["path"])
