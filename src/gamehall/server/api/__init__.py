"""The HTTP and WebSocket API: the FastAPI app, one router per feature, the room's WebSocket, the
door (who asks, scopes, limits).
"""
