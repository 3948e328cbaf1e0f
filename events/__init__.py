"""Usage events: their data types, sinks, the event log (bounded queue, writer thread, spill file),
the stores behind it (Azure Table Storage or SQLite) with their keys, and the usage report.

Below `bot` and `adapters`, which emit events; this package imports neither."""
