"""The API's routers, one per feature."""
