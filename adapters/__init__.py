"""Hardware at the table: NFC card readers and dice trays, and the link that feeds a server."""
