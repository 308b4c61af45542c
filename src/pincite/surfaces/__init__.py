"""The surfaces: thin adapters over the service — cli/ (the `pincite` command), http/ (the API
and the page), mcp (the MCP server), web/ (the page's static files), schemas (their documents)."""
