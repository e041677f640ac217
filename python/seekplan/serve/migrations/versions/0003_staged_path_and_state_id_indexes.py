"""The path index holds staged files only: inserting every requested file
into a full path index was the slowest part of accepting files requested in
random order. The state index holds the id, so that open files are read in
id order without a sort of all of them.

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
    """Replaces the index on every file's path by one on staged files' paths,
    and the state index by one on (state, id)."""
    op.drop_index("files_state", "files")
    op.create_index("files_state_id", "files", ["state", "id"])
    op.drop_index("files_path", "files")
    op.create_index(
        "files_path_staged", "files", ["path"], sqlite_where=STAGED, postgresql_where=STAGED
    )


def downgrade() -> None:
    """Restores the index on every file's path and on the state alone."""
    op.drop_index("files_path_staged", "files")
    op.create_index("files_path", "files", ["path"])
    op.drop_index("files_state_id", "files")
    op.create_index("files_state", "files", ["state"])
