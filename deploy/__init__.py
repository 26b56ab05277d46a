"""What starts a gamehall cluster: the nginx configuration and the process topology."""
