"""SQLite storage: schema, migrations, connections, repository, bundles, dump."""
