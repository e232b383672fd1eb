"""PostgreSQL as the tests use it: Django's backend, emptied between tests by DELETE.

A test that commits (pytest-django's `transactional_db`: the browser tests, the races, the outages)
is followed by a flush. Django's is one TRUNCATE of every table, which costs PostgreSQL new files for
each of them and their indexes, about 0.2 s whatever the test wrote; the post_migrate signal then
makes the content types and permissions again, 0.2 s more. DELETE costs next to nothing on a table
with no rows, and a test writes to a few. So:
- every table's rows are deleted (Django's foreign keys are checked at commit, so in any order);
- a table whose rows may not be deleted (a trigger of its own refuses it, as the audit trail's does)
  is truncated, which its trigger does not see, as with Django's flush;
- the content types and permissions are kept, as the migrations made them (conftest.py keeps the
  post_migrate signal from reading them all back after each flush).
"""

from django.db.backends.postgresql import base, operations

MADE_BY_POST_MIGRATE = {"django_content_type", "auth_permission"}


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                " WHERE NOT t.tgisinternal"
            )
            guarded = {table for (table,) in cursor.fetchall()}
        emptied = [table for table in tables if table not in MADE_BY_POST_MIGRATE]
        truncated = [self.quote_name(table) for table in emptied if table in guarded]
        deleted = [self.quote_name(table) for table in emptied if table not in guarded]
        # The names are Django's own tables', quoted by the backend.
        sql = [f"TRUNCATE {', '.join(truncated)};"] if truncated else []
        return sql + [f"DELETE FROM {name};" for name in deleted]  # noqa: S608


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
